# Every third-party library comes from Debian 12 (scripts/setup.sh installs them).
find_package(fmt REQUIRED)
find_package(nlohmann_json REQUIRED)
find_package(CLI11 REQUIRED)
find_package(PkgConfig REQUIRED)
# SimGrid ships no CMake package in Debian; only sim/platform, sim/train and sim/infer link it.
pkg_check_modules(SIMGRID REQUIRED IMPORTED_TARGET simgrid)
# TOML++ ships a CMake config in Debian; only sim/scenario may link it.
find_package(tomlplusplus REQUIRED)
find_package(ONNX REQUIRED)
find_package(Protobuf REQUIRED)
if(DLSIM_TESTS)
  find_package(GTest REQUIRED)
endif()
