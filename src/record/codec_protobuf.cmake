# src/record/codec_protobuf.cmake — the protobuf rows' schema compiler (see codecs.cmake): protoc from
# Debian protobuf-compiler compiles schemas/protobuf.proto into ${codegen_dir} at build time (protobuf.pb.h
# and protobuf.pb.cc, never committed), compiled into `target` (the record library). The generated code
# matches the runtime only when protoc is the same release as libprotobuf-dev (both 3.21 on Debian 12):
# /usr/bin/protoc first, where the packages install it.
# Cached: tests/record's interop test runs the same protoc (protoc --decode / --encode).
find_program(ZAPBENCH_PROTOC protoc PATHS /usr/bin NO_DEFAULT_PATH)
if(NOT ZAPBENCH_PROTOC)
  find_program(ZAPBENCH_PROTOC protoc)
endif()
if(NOT ZAPBENCH_PROTOC)
  set(codegen_missing "protoc not found at configure time (apt-get install protobuf-compiler)")
  return()
endif()

set(_pb_schema "${CMAKE_CURRENT_SOURCE_DIR}/schemas/protobuf.proto")
set(_pb_outputs "${codegen_dir}/protobuf.pb.h" "${codegen_dir}/protobuf.pb.cc")
add_custom_command(
  OUTPUT ${_pb_outputs}
  COMMAND "${ZAPBENCH_PROTOC}" "--proto_path=${CMAKE_CURRENT_SOURCE_DIR}/schemas" "--cpp_out=${codegen_dir}"
          "${_pb_schema}"
  DEPENDS "${_pb_schema}"
  COMMENT "protoc: schemas/protobuf.proto"
  VERBATIM)
target_sources(${target} PRIVATE ${_pb_outputs})
target_include_directories(${target} PRIVATE "${codegen_dir}")
# Generated code is protoc's, not ours: our warnings (-Wconversion, -Wshadow) do not apply to it.
set_source_files_properties(${_pb_outputs} PROPERTIES GENERATED TRUE COMPILE_OPTIONS "-w")
