# src/record/codec_flatbuffers.cmake — compiles src/record/schemas/flatbuffers.fbs with the packaged flatc
# (Debian flatbuffers-compiler) at build time, for the flatbuffers and flatbuffers-trusted rows. Included
# once by codecs.cmake (zapbench_codec_table) with `target` (the record library) and `codegen_dir` (this
# base's folder in the build tree); sets `codegen_missing` when flatc cannot be found.
#
# flatc --cpp writes one header (flatbuffers_generated.h: the structs, tables, builders and verifiers;
# FlatBuffers' C++ code generation has no .cpp). It is added to `target`'s sources so that it is generated
# before codec_flatbuffers.cpp compiles, and its folder is a SYSTEM include directory of `target`, so our
# warnings (-Wconversion, -Wshadow) do not fire on generated code. The generated header static_asserts that
# it matches the library's version (2.0.8), so flatc and libflatbuffers-dev must be the same release.
find_program(ZAPBENCH_FLATC flatc DOC "FlatBuffers schema compiler (Debian flatbuffers-compiler)")
set(_flatc_version "")
if(ZAPBENCH_FLATC)
  execute_process(COMMAND "${ZAPBENCH_FLATC}" --version OUTPUT_VARIABLE _flatc_out ERROR_QUIET)
  if(_flatc_out MATCHES "version ([0-9]+\\.[0-9]+\\.[0-9]+)")
    set(_flatc_version "${CMAKE_MATCH_1}")
  endif()
endif()
if(NOT ZAPBENCH_FLATC)
  set(codegen_missing "flatbuffers-compiler not found at configure time (apt-get install flatbuffers-compiler)")
elseif(NOT _flatc_version VERSION_EQUAL FlatBuffers_VERSION)
  set(codegen_missing "${ZAPBENCH_FLATC} is version '${_flatc_version}', libflatbuffers-dev \
${FlatBuffers_VERSION}: the generated code needs the same release (apt-get install flatbuffers-compiler)")
else()
  set(_fbs "${CMAKE_CURRENT_LIST_DIR}/schemas/flatbuffers.fbs")
  set(_fbs_header "${codegen_dir}/flatbuffers_generated.h")
  add_custom_command(
    OUTPUT "${_fbs_header}"
    COMMAND "${ZAPBENCH_FLATC}" --cpp -o "${codegen_dir}" "${_fbs}"
    DEPENDS "${_fbs}"
    COMMENT "flatc --cpp schemas/flatbuffers.fbs"
    VERBATIM)
  target_sources(${target} PRIVATE "${_fbs_header}")
  target_include_directories(${target} SYSTEM PRIVATE "${codegen_dir}")
endif()
