// Declarations only: the definitions are in the libFuzzer runtime linked by -sanitize=fuzzer.
#include "CLibFuzzer.h"
