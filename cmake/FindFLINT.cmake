# Finds FLINT (exact polynomial arithmetic: fmpz_poly) and, when present, its ball arithmetic Arb
# as a separate library (Debian bookworm: libflint-dev 2.9 and libflint-arb-dev 2.23, header
# arb_poly.h in /usr/include, library libflint-arb). Debian ships no CMake or pkg-config file for
# either. Defines FLINT::FLINT, and FLINT::ARB when a separate Arb library and its header are found.
# exactdp's library links FLINT::FLINT always and FLINT::ARB when it exists (CMakeLists.txt: then
# EXACTDP_HAVE_ARB selects Arb's enclosure of erfc in numeric/interval.cpp, MPFR's otherwise).
# FLINT 3 merged Arb into libflint and ships no libflint-arb/libarb: there FLINT::ARB is not
# defined and exactdp falls back to MPFR, correct but slower in the tails of Φ.
find_path(FLINT_INCLUDE_DIR flint/fmpz_poly.h)
find_library(FLINT_LIBRARY flint)
find_path(FLINT_ARB_INCLUDE_DIR arb_poly.h PATHS /usr/include /usr/include/flint)
find_library(FLINT_ARB_LIBRARY NAMES flint-arb arb)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(FLINT REQUIRED_VARS FLINT_LIBRARY FLINT_INCLUDE_DIR)
if(FLINT_FOUND AND NOT TARGET FLINT::FLINT)
  add_library(FLINT::FLINT UNKNOWN IMPORTED)
  set_target_properties(FLINT::FLINT PROPERTIES
    IMPORTED_LOCATION "${FLINT_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${FLINT_INCLUDE_DIR}")
endif()
if(FLINT_FOUND AND FLINT_ARB_LIBRARY AND FLINT_ARB_INCLUDE_DIR AND NOT TARGET FLINT::ARB)
  add_library(FLINT::ARB UNKNOWN IMPORTED)
  set_target_properties(FLINT::ARB PROPERTIES
    IMPORTED_LOCATION "${FLINT_ARB_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${FLINT_ARB_INCLUDE_DIR}"
    INTERFACE_LINK_LIBRARIES FLINT::FLINT)
endif()
