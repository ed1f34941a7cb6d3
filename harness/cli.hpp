#pragma once
namespace contactbench::harness {
// The `contactbench` command. Exit codes: 0 nothing wrong, 1 something wrong, 2 bad input
// or usage. Runs in-process so the tests can call it.
int cli_main(int argc, char** argv);
}  // namespace contactbench::harness
