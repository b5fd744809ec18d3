#!/usr/bin/env bash
# Open MPI 4.1 for a GPU machine without it (issue 44): the .deb files of openmpi-bin and
# libopenmpi3 with their libraries (Debian 12's; glibc, perl and other base packages
# left out), fetched with `apt-get download` into dist/mpi/debs, and the MPI build of the
# binary into dist/mpi/qapgpu.xz (stripped). Carry dist/mpi to the GPU machine and run scripts/mpi-gpu.sh.
set -eu
mkdir -p dist/mpi/debs
cd dist/mpi/debs
base='^(libc6|libgcc-s1|libstdc\+\+6|gcc-12-base|debconf|perl|perl-base|dpkg|libcrypt1|zlib1g|libselinux1|libpcre2-8-0|libdb5\.3|libgdbm6|libgdbm-compat4|perl-modules.*|libperl.*|tar|install-info|libtinfo6|debianutils|coreutils|libacl1|libattr1|libgmp10|base-files|mawk|lsb-base|sysvinit-utils|init-system-helpers|usrmerge|libsystemd0|libzstd1|liblzma5|liblz4-1|libgcrypt20|libgpg-error0|libcap2|libssl3|openssl|ca-certificates|libaudit1|libaudit-common|libcap-ng0|libbz2-1\.0|libmd0|libbsd0|libexpat1|libffi8|readline-common|libreadline8|libsqlite3-0|libuuid1|libblkid1|libmount1|util-linux.*|.*-dev|adduser|cdebconf|libdebian-installer4|libnewt.*|libslang2|libtextwrap1|libpam.*|libsemanage.*|libsepol2|passwd)$'
pkgs=$(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks --no-replaces \
  --no-enhances --no-pre-depends openmpi-bin libopenmpi3 | grep '^\w' | sort -u | grep -vE "$base")
apt-get download $pkgs
cd ../../..
cargo build --release -p host --features mpi
strip -o dist/mpi/qapgpu target/release/qapgpu
xz -f -T2 dist/mpi/qapgpu
du -sh dist/mpi
