# cmake -DREPORT=<skc_kernels.coverage.md> -DREADME=<README.md> -P <this>
#
# Fails when the kernel library's coverage report in the README (between
# the skc-kernels-coverage markers) is not the one skc writes at build time,
# so that the README shows what the kernels cover.
set(begin_marker "<!-- skc-kernels-coverage:begin -->\n")
set(end_marker "<!-- skc-kernels-coverage:end -->")
file(READ "${REPORT}" report)
file(READ "${README}" readme)
string(FIND "${readme}" "${begin_marker}" begin)
string(FIND "${readme}" "${end_marker}" end)
if(begin EQUAL -1 OR end EQUAL -1 OR end LESS begin)
  message(FATAL_ERROR "${README}: no '${begin_marker}' ... '${end_marker}' "
    "block for the coverage report")
endif()
string(LENGTH "${begin_marker}" marker_length)
math(EXPR first "${begin} + ${marker_length}")
math(EXPR length "${end} - ${first}")
string(SUBSTRING "${readme}" ${first} ${length} shown)
if(NOT shown STREQUAL report)
  message(FATAL_ERROR "The coverage report in ${README} is out of date; "
    "replace the block between the skc-kernels-coverage markers with the "
    "contents of ${REPORT}")
endif()
