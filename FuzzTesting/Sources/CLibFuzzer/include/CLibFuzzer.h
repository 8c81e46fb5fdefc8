#ifndef CLIBFUZZER_H
#define CLIBFUZZER_H
#include <stddef.h>
#include <stdint.h>

/// libFuzzer's entry point for programs with their own main (compiler-rt, FuzzerDriver.cpp):
/// parses the libFuzzer flags in argv and fuzzes `callback`.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
