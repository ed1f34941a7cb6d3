// The one Boost.Test executable; each harness/tests/<stem>.cpp holds suite <stem>, which
// CMake registers as its own ctest entry (`--run_test=<stem>`).
#define BOOST_TEST_MODULE contactbench
#include <boost/test/unit_test.hpp>
