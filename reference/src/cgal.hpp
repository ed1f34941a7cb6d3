// temporary local stand-in until main lands (not committed)
#pragma once
#include <gmpxx.h>
