# src/record/codec_capnp.cmake — the capnp codecs' build-time code generation, included by codecs.cmake
# (once, for the base `capnp`) with `target` (the record library) and `codegen_dir` set. Runs the
# packaged schema compiler (`capnp compile -oc++`, Debian capnproto) on schemas/capnp.capnp into
# codegen_dir, adds the generated capnp.capnp.c++ to `target` (compiled with -w: generated code is not
# held to our warnings) and codegen_dir to its private include path. Sets `codegen_missing` when the
# compiler or its C++ plugin is not installed.
#
# The library is found through pkg-config (capnp.pc, the row's pkg-config:capnp), not Debian's
# CapnProtoConfig.cmake: 0.9.2's config runs check_library_exists(atomic __atomic_load_8) in this
# C++-only project, where g++ rejects the probe's redeclaration of the builtin, and then stops the
# whole configure with FATAL_ERROR "libatomic not found" instead of leaving the codec unavailable. Its
# capnp_generate_cpp (CapnProtoMacros.cmake) is not used either: one add_custom_command says exactly
# what is built, and where.
set(_capnp_schema "${CMAKE_CURRENT_SOURCE_DIR}/schemas/capnp.capnp")
find_program(CAPNP_EXECUTABLE capnp)
find_program(CAPNPC_CXX_EXECUTABLE capnpc-c++)
if(NOT CAPNP_EXECUTABLE OR NOT CAPNPC_CXX_EXECUTABLE)
  set(codegen_missing "capnproto not found at configure time (apt-get install capnproto)")
else()
  set(_capnp_out "${codegen_dir}/capnp.capnp.c++" "${codegen_dir}/capnp.capnp.h")
  add_custom_command(
    OUTPUT ${_capnp_out}
    COMMAND "${CAPNP_EXECUTABLE}" compile "-o${CAPNPC_CXX_EXECUTABLE}:${codegen_dir}"
            "--src-prefix=${CMAKE_CURRENT_SOURCE_DIR}/schemas" "${_capnp_schema}"
    DEPENDS "${_capnp_schema}" "${CAPNP_EXECUTABLE}" "${CAPNPC_CXX_EXECUTABLE}"
    COMMENT "capnp compile -oc++ schemas/capnp.capnp"
    VERBATIM)
  set_source_files_properties("${codegen_dir}/capnp.capnp.c++" PROPERTIES LANGUAGE CXX COMPILE_OPTIONS "-w"
                                                                         GENERATED TRUE)
  target_sources(${target} PRIVATE ${_capnp_out})
  target_include_directories(${target} PRIVATE "${codegen_dir}")
endif()
