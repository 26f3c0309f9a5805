# src/record/codec_thrift.cmake — the thrift codecs' build-time code generation (included by codecs.cmake
# with `target`, the record library, and `codegen_dir`). The packaged compiler (Debian thrift-compiler)
# turns schemas/thrift.thrift into C++ with templated read/write (`cpp:templates`: read<Protocol_> and
# write<Protocol_> are instantiated on the concrete TCompactProtocolT / TBinaryProtocolT, so no protocol call
# goes through TProtocol's virtual interface: the library's fast path). Generated code stays in the build
# tree and is compiled with -w (it is not ours to hold to -Wconversion). THRIFT_EXECUTABLE is cached, so
# tests/record (the interop test's Python code) finds the same compiler.
find_program(THRIFT_EXECUTABLE thrift)
if(NOT THRIFT_EXECUTABLE)
  set(codegen_missing "thrift-compiler not found at configure time (apt-get install thrift-compiler)")
  return()
endif()

set(_thrift_schema "${dir}/schemas/thrift.thrift")
set(_thrift_out "${codegen_dir}/thrift_types.h" "${codegen_dir}/thrift_types.tcc" "${codegen_dir}/thrift_types.cpp")
add_custom_command(
  OUTPUT ${_thrift_out}
  COMMAND "${THRIFT_EXECUTABLE}" --gen cpp:templates -out "${codegen_dir}" "${_thrift_schema}"
  DEPENDS "${_thrift_schema}"
  COMMENT "thrift --gen cpp:templates schemas/thrift.thrift"
  VERBATIM)
set_source_files_properties(${_thrift_out} PROPERTIES GENERATED TRUE)
set_source_files_properties("${codegen_dir}/thrift_types.cpp" PROPERTIES COMPILE_OPTIONS "-w")
target_sources(${target} PRIVATE "${codegen_dir}/thrift_types.cpp")
target_include_directories(${target} SYSTEM PRIVATE "${codegen_dir}")  # -isystem: its .tcc is compiled in our file

# TBinaryProtocol 0.17 turns the wire's type byte into a TType unchecked ((TType)byte in readFieldBegin,
# readListBegin, readSetBegin, readMapBegin: header templates, compiled in codec_thrift.cpp): any byte
# outside the enum's range 0..31 is undefined behaviour by the letter of C++ ([expr.static.cast]), which
# UBSan's `enum` check (part of -fsanitize=undefined in GCC and clang) reports on the first malformed input.
# Neither compiler assumes an enum's range unless -fstrict-enums (off by default, never set here), so the
# value behaves as the int it was: an unknown type is skipped, and skip() throws "invalid TType". That one
# check is off for this file (the project's own enums in it are always valid); every other stays on.
set_source_files_properties("${dir}/codec_thrift.cpp" PROPERTIES COMPILE_OPTIONS "-fno-sanitize=enum")
