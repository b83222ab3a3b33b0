# Functions declaring gemm-mlir's libraries and tools (as CIRCT's
# AddCIRCT.cmake does for its own).
#
# add_mlir_library installs every library into MLIR's export set
# (MLIRTargets, through add_mlir_library_install and get_target_export_arg),
# which an out-of-tree project never installs: the libraries would be copied
# but not exported. These wrappers build with the upstream functions,
# without their install rule (DISABLE_INSTALL), and install into our own
# export set, GemmMLIRTargets, which cmake/CMakeLists.txt writes out as
# <prefix>/lib/cmake/GemmMLIR/GemmMLIRTargets.cmake (targets GemmMLIR::<name>).
#
# Every library and tool of the project must be declared with them: an
# exported library that links one of ours outside the export set is a CMake
# error at generation time.

include_guard(GLOBAL)
include(GNUInstallDirs)

set(GEMM_EXPORT_SET GemmMLIRTargets)
set(GEMM_INSTALL_LIBDIR "lib${LLVM_LIBDIR_SUFFIX}")

# Installs library `name` into GemmMLIRTargets. Its installed interface has
# our include directory and C++17; the MLIR and LLVM include directories are
# added by GemmMLIRConfig.cmake, from the MLIR the consumer finds.
function(gemm_install_library name)
  target_compile_features(${name} INTERFACE cxx_std_17)
  install(TARGETS ${name}
    EXPORT ${GEMM_EXPORT_SET}
    LIBRARY DESTINATION ${GEMM_INSTALL_LIBDIR}
    ARCHIVE DESTINATION ${GEMM_INSTALL_LIBDIR}
    RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
    INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  set_property(GLOBAL APPEND PROPERTY GEMM_EXPORTED_LIBS ${name})
endfunction()

# add_mlir_library(name ...) installed into GemmMLIRTargets.
function(add_gemm_library name)
  add_mlir_library(${ARGV} DISABLE_INSTALL)
  gemm_install_library(${name})
endfunction()

# add_mlir_dialect_library(name ...) installed into GemmMLIRTargets.
function(add_gemm_dialect_library name)
  add_mlir_dialect_library(${ARGV} DISABLE_INSTALL)
  gemm_install_library(${name})
endfunction()

# add_mlir_conversion_library(name ...) installed into GemmMLIRTargets.
function(add_gemm_conversion_library name)
  add_mlir_conversion_library(${ARGV} DISABLE_INSTALL)
  gemm_install_library(${name})
endfunction()

# add_llvm_executable(name ...) installed into <prefix>/bin and exported as
# GemmMLIR::<name>. add_llvm_executable installs nothing itself; it sets the
# install RPATH to $ORIGIN/../lib, to which we add the directory of the MLIR
# and LLVM shared libraries we link (Debian keeps libMLIR.so in
# /usr/lib/llvm-22/lib only, outside the loader's default path).
function(add_gemm_tool name)
  add_llvm_executable(${ARGV})
  set_property(TARGET ${name} APPEND PROPERTY INSTALL_RPATH
    "${LLVM_LIBRARY_DIR}")
  install(TARGETS ${name}
    EXPORT ${GEMM_EXPORT_SET}
    RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endfunction()
