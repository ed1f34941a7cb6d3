/* contactbench plugin ABI: what every plugin library shares.
 *
 * A plugin is a shared library (dlopen) that exports, for one family <stem>,
 *   - the ABI version it was built against:
 *       CONTACTBENCH_PLUGIN_ABI();          (defines contactbench_plugin_abi_version)
 *   - the kernel, declared in <contactbench/<stem>.h>:
 *       void contactbench_<stem>(const contactbench_<stem>_query*, contactbench_<stem>_result*);
 * `contactbench check --family <stem> --plugin lib.so` judges the kernel exactly as the
 * family's own fast variant is judged: same queries, comparison rule and stated bounds.
 *
 * The kernel is called from one thread at a time, in a child process (fork), so a crash in
 * it is reported as a crash (exit 2), never as a verdict. It must not throw across the C
 * boundary. Plain C structs of doubles and ints; units and conventions as in the family's
 * cases/<stem>.hpp. The version changes whenever any struct of any family header changes. */
#ifndef CONTACTBENCH_PLUGIN_H
#define CONTACTBENCH_PLUGIN_H

#define CONTACTBENCH_PLUGIN_ABI_VERSION 1

#ifdef __cplusplus
#define CONTACTBENCH_EXTERN_C extern "C"
#else
#define CONTACTBENCH_EXTERN_C
#endif
#define CONTACTBENCH_PLUGIN_EXPORT CONTACTBENCH_EXTERN_C __attribute__((visibility("default")))

/* A data symbol, so that reading the version never runs plugin code. */
#define CONTACTBENCH_PLUGIN_ABI() \
  CONTACTBENCH_PLUGIN_EXPORT const unsigned contactbench_plugin_abi_version = CONTACTBENCH_PLUGIN_ABI_VERSION

#endif
