# kernels/gpu builds whenever nvcc and cuDNN are present, and is skipped with a message
# otherwise.  On a machine whose cuDNN lives elsewhere (the GPU machine keeps it inside
# PyTorch's wheels), point DLSIM_CUDNN_ROOT at the folder holding include/cudnn.h and
# lib/libcudnn.so*.
set(DLSIM_CUDA_ROOT "/usr/local/cuda" CACHE PATH "CUDA toolkit root")
set(DLSIM_CUDNN_ROOT "${DLSIM_CUDA_ROOT}" CACHE PATH "cuDNN root (include/cudnn.h, lib/libcudnn.so)")
option(DLSIM_GPU "Build kernels/gpu when nvcc and cuDNN are found" ON)

set(DLSIM_HAVE_CUDA OFF)
if(DLSIM_GPU AND NOT DLSIM_SANITIZE AND NOT DLSIM_FUZZ)
  if(NOT CMAKE_CUDA_COMPILER AND EXISTS "${DLSIM_CUDA_ROOT}/bin/nvcc")
    set(CMAKE_CUDA_COMPILER "${DLSIM_CUDA_ROOT}/bin/nvcc")
  endif()
  find_path(DLSIM_CUDNN_INCLUDE cudnn.h
    HINTS "${DLSIM_CUDNN_ROOT}/include" "${DLSIM_CUDNN_ROOT}/include/x86_64-linux-gnu" /usr/include)
  if(CMAKE_CUDA_COMPILER AND EXISTS "${CMAKE_CUDA_COMPILER}" AND DLSIM_CUDNN_INCLUDE)
    if(NOT CMAKE_CUDA_ARCHITECTURES)
      set(CMAKE_CUDA_ARCHITECTURES "80;90")
    endif()
    set(DLSIM_HAVE_CUDA ON)
  endif()
endif()
