# skc_kernel_library_outputs, as skc's own tree derives it, names exactly the
# files `skc --print-outputs` prints, for several backends and shard counts.
#
#   cmake -DSKC=<skc> -DSKC_SOURCE_DIR=<dir> -P OutputsAgree.cmake

set(SKC_RUNTIME_INCLUDE_DIR "${SKC_SOURCE_DIR}/runtime")
include("${SKC_SOURCE_DIR}/cmake/SkcKernelLibrary.cmake")

foreach(config "CPU;1" "CPU,CUDA;1" "CUDA;3" "CPU,PrivateUse1,PrivateUse3;2")
  list(GET config 0 backend_list)
  list(GET config 1 shards)
  string(REPLACE "," ";" backends "${backend_list}")
  skc_kernel_library_outputs(derived OUTPUT_DIR "/out"
    BACKENDS ${backends} SHARDS ${shards})
  execute_process(
    COMMAND "${SKC}" --print-outputs -o /out "--backend=${backend_list}"
      "--shards=${shards}"
    OUTPUT_VARIABLE printed RESULT_VARIABLE result
    OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "skc --print-outputs failed: ${result}")
  endif()
  string(REPLACE "\n" ";" printed "${printed}")
  list(SORT printed)
  list(SORT derived)
  if(NOT printed STREQUAL derived)
    message(FATAL_ERROR "--backend=${backend_list} --shards=${shards}:\n"
      "skc --print-outputs: ${printed}\n"
      "skc_kernel_library_outputs: ${derived}")
  endif()
  list(LENGTH printed count)
  message(STATUS "--backend=${backend_list} --shards=${shards}: ${count} files agree")
endforeach()
