# accelplan-server image: Debian 12 builder -> slim runtime.
# Base images are named only debian:bookworm / debian:bookworm-slim so a
# locally imported (debootstrapped) base can stand in for Docker Hub's; see
# deploy/verify.sh. No "# syntax=" line: offline builders cannot fetch a
# frontend image.

FROM debian:bookworm AS builder
# Own layer: only changes when the package list does. libbenchmark-dev only
# because configuring the tree needs it (bench/); nothing links it here.
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      cmake g++ make pkg-config \
      libgrpc++-dev protobuf-compiler-grpc libprotobuf-dev protobuf-compiler \
      libabsl-dev prometheus-cpp-dev libsqlitecpp-dev libsqlite3-dev \
      libbenchmark-dev \
 && rm -rf /var/lib/apt/lists/*

WORKDIR /src
# Only what the server, the CLI and the catalog are built from, so edits to
# docs, tests or deploy/ keep the compile layer cached.
COPY CMakeLists.txt ./
COPY cmake/ cmake/
COPY proto/ proto/
COPY catalog/ catalog/
COPY planner/ planner/
COPY api/ api/
COPY core/ core/
COPY server/ server/
COPY client/ client/
COPY bench/ bench/
RUN cmake -S . -B /build -DCMAKE_BUILD_TYPE=Release \
      -DACCELPLAN_BUILD_TESTS=OFF \
 && cmake --build /build -j"$(nproc)" \
      --target accelplan-server accelplan accelplan_catalog_db \
 && install -D -m 0755 -s /build/accelplan-server /out/bin/accelplan-server \
 && install -D -m 0755 -s /build/accelplan /out/bin/accelplan \
 && install -D -m 0444 /build/catalog.db /out/share/accelplan/catalog.db

FROM debian:bookworm-slim
# Runtime shared libraries only (ldd of both binaries; SQLiteCpp links
# statically; apt adds dependencies such as libgrpc29, libssl3, libre2-9).
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      libgrpc++1.51 libprotobuf32 libabsl20220623 \
      libprometheus-cpp-core1.0 libprometheus-cpp-pull1.0 \
      libsqlite3-0 \
 && rm -rf /var/lib/apt/lists/* /var/cache/apt/archives/*.deb
# The same layout `cmake --install` gives under /usr/local; the server finds
# <exe_dir>/../share/accelplan/catalog.db by default.
COPY --from=builder /out/ /usr/local/
# Distroless-style "nonroot" uid; nothing in the image needs writing, so the
# container runs with a read-only root filesystem.
USER 65532:65532
EXPOSE 50051 9464
# The server handles SIGTERM itself (drain, then exit 0) and runs fine as
# PID 1, so no init process is needed.
ENTRYPOINT ["/usr/local/bin/accelplan-server"]
