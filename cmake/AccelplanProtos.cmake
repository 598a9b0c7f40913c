# accelplan_grpc_proto_library(TARGET OUT_DIR PROTO...): a static library of
# the C++ messages and gRPC stubs generated from the PROTO files into
# OUT_DIR, which goes on the library's public include path. Imports resolve
# against the calling folder, so each file keeps its canonical name there.
function(accelplan_grpc_proto_library target out_dir)
  add_library(${target} STATIC ${ARGN})
  target_link_libraries(${target} PUBLIC protobuf::libprotobuf gRPC::grpc++)
  file(MAKE_DIRECTORY ${out_dir})
  target_include_directories(${target} PUBLIC ${out_dir})
  protobuf_generate(TARGET ${target} LANGUAGE cpp
    IMPORT_DIRS ${CMAKE_CURRENT_SOURCE_DIR}
    PROTOC_OUT_DIR ${out_dir})
  protobuf_generate(TARGET ${target} LANGUAGE grpc
    GENERATE_EXTENSIONS .grpc.pb.h .grpc.pb.cc
    PLUGIN protoc-gen-grpc=$<TARGET_FILE:gRPC::grpc_cpp_plugin>
    IMPORT_DIRS ${CMAKE_CURRENT_SOURCE_DIR}
    PROTOC_OUT_DIR ${out_dir})
endfunction()
