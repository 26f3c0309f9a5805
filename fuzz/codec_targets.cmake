# fuzz/codec_targets.cmake — which record codecs get a libFuzzer target (<name>_fuzz, ctest
# fuzz.codec.<name>) and from which seed corpus: every codec this build has, in src/record/codecs.table's
# order (read by src/record/codecs.cmake). Included by fuzz/CMakeLists.txt, which builds the targets, and
# by tests/CMakeLists.txt, whose record_table_test fails when this list is not the registry's.

# zapfuzz_codec_targets(NAMES_OUT): the names, in table order; sets ZAPFUZZ_SEEDS_<name> to "zap" (the ZAP
# messages decoded from the vectors), "json" (the JSON vectors and fuzz/json_seeds) or "peer" (a binary
# peer's own encodings, written at build time by record_peer_seeds) for each.
function(zapfuzz_codec_targets out)
  set(names "")
  foreach(name IN LISTS ZAPBENCH_AVAILABLE_CODECS)
    string(TOUPPER ${name} upper)
    string(REPLACE "-" "_" upper "${upper}")
    set(type "${ZAPBENCH_CODEC_${upper}_CONTENT_TYPE}")
    if(type STREQUAL "application/zap")
      set(ZAPFUZZ_SEEDS_${name} zap PARENT_SCOPE)
    elseif(type STREQUAL "application/json")
      set(ZAPFUZZ_SEEDS_${name} json PARENT_SCOPE)
    else()
      set(ZAPFUZZ_SEEDS_${name} peer PARENT_SCOPE)
    endif()
    list(APPEND names ${name})
  endforeach()
  set(${out} "${names}" PARENT_SCOPE)
endfunction()
