# The native core's one source list and one set of flags, included by every CMake project that
# compiles it: native/CMakeLists.txt (the Node addon, its planted-bug twin, the C++ tests) and
# python/CMakeLists.txt (the Python extension). One list, so no binding can run a core built
# differently: a kernel left out or a flag dropped would break bit-identity between the two.
#
# Defines ACH_NATIVE_DIR, XSIMD_INCLUDE_DIR, ACH_COMMON_FLAGS, ACH_CORE_SOURCES, ACH_KERNEL_SOURCES
# (absolute paths, so a project in another folder can use them) and achilles_core(name [defs...]).
set(ACH_NATIVE_DIR ${CMAKE_CURRENT_LIST_DIR})

find_path(XSIMD_INCLUDE_DIR xsimd/xsimd.hpp)
if(NOT XSIMD_INCLUDE_DIR)
  message(FATAL_ERROR "xsimd headers not found. Install them with: sudo apt-get install libxsimd-dev")
endif()

# IEEE arithmetic only: no contraction into FMA, no fast-math, so every lane width and the
# scalar path produce bit-identical results.
set(ACH_COMMON_FLAGS -O3 -ffp-contract=off -fno-fast-math -fno-math-errno -fvisibility=hidden -Wall -Wextra -Wno-unused-parameter)

# Generic sources first: on duplicate inline definitions the linker keeps the first, so shared
# helpers come from baseline code, never from an AVX-512 translation unit.
set(ACH_CORE_SOURCES src/model.cpp src/engine.cpp src/batch.cpp src/lane_difference.cpp src/collision/filter.cpp src/collision/standalone.cpp src/contact/invweight.cpp src/actuators/actuators.cpp src/actuators/dampratio.cpp src/actuators/springdamper.cpp)
set(ACH_KERNEL_SOURCES src/kernels/flops.cpp src/kernels/kernel_scalar.cpp src/kernels/kernel_sse2.cpp src/kernels/kernel_avx2.cpp src/kernels/kernel_avx512.cpp)
list(TRANSFORM ACH_CORE_SOURCES PREPEND ${ACH_NATIVE_DIR}/)
list(TRANSFORM ACH_KERNEL_SOURCES PREPEND ${ACH_NATIVE_DIR}/)

# Every instruction set's kernel, each with its own flags; the engine picks one at run time
# (make_kernel, src/engine.cpp), so one binary serves SSE2, AVX2 and AVX-512 machines.
# The kernels' helpers are forced inline in the source (ACH_INLINE, simd.hpp), not through GCC's
# inline limits: raised limits made the compile minutes longer and left speed to the inliner's
# budget in each translation unit.
# (Source properties are per directory: this file sets them in the directory that includes it.)
set_source_files_properties(${ACH_NATIVE_DIR}/src/kernels/kernel_scalar.cpp PROPERTIES COMPILE_OPTIONS "-DACH_ISA_NS=isa_scalar")
set_source_files_properties(${ACH_NATIVE_DIR}/src/kernels/flops.cpp PROPERTIES COMPILE_OPTIONS "-DACH_ISA_NS=isa_flops")
set_source_files_properties(${ACH_NATIVE_DIR}/src/kernels/kernel_sse2.cpp PROPERTIES COMPILE_OPTIONS "-msse2;-DACHILLES_SIMD=1;-DACH_ISA_NS=isa_sse2")
set_source_files_properties(${ACH_NATIVE_DIR}/src/kernels/kernel_avx2.cpp PROPERTIES COMPILE_OPTIONS "-mavx2;-DACHILLES_SIMD=1;-DACH_ISA_NS=isa_avx2")
set_source_files_properties(${ACH_NATIVE_DIR}/src/kernels/kernel_avx512.cpp PROPERTIES COMPILE_OPTIONS "-mavx512f;-mavx512dq;-mavx512bw;-mavx512vl;-DACHILLES_SIMD=1;-DACH_ISA_NS=isa_avx512")

# The engine's objects, compiled once per project and shared by its targets; extra arguments are
# compile definitions (the bug build's ACHILLES_PLANTED_BUGS=1).
function(achilles_core name)
  add_library(${name} OBJECT ${ACH_CORE_SOURCES} ${ACH_KERNEL_SOURCES})
  set_target_properties(${name} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  target_include_directories(${name} PRIVATE ${ACH_NATIVE_DIR}/include ${XSIMD_INCLUDE_DIR})
  target_compile_options(${name} PRIVATE ${ACH_COMMON_FLAGS})
  target_compile_definitions(${name} PRIVATE ${ARGN})
endfunction()
