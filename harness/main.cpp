#include "harness/cli.hpp"

int main(int argc, char** argv) { return contactbench::harness::cli_main(argc, argv); }
