"""qapgpu's PEP 517 build backend: maturin's, after building the GPU kernels.

``pip install ./python`` (and ``pip wheel``, ``pip install -e``) call ``build_wheel`` or
``build_editable`` here. Before handing over to maturin, they run
``cargo xtask build-ptx --require-ptxas`` in the repository root (the parent of python/):
it compiles the device crate to PTX and assembles it with ptxas into sm_XX machine code,
all under target/ptx/, which the host crate's build script embeds in the extension module.
ptxas comes from $PTXAS when that is set, else from the ``nvidia-cuda-nvcc`` build
requirement (pyproject.toml), else from PATH; where there is none, xtask fetches it.

When the kernels cannot be built, the build fails and says why, unless a CPU-only package
was asked for: ``QAPGPU_CPU_ONLY=1`` in the environment, or pip's
``--config-settings cpu-only=true``. A CPU-only build skips xtask and says what it embeds.

Metadata and sdist hooks are maturin's, unchanged. docs/python.md describes all of this.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import maturin
from maturin import (  # noqa: F401  (re-exported PEP 517 hooks)
    build_sdist,
    get_requires_for_build_sdist,
    prepare_metadata_for_build_editable,
    prepare_metadata_for_build_wheel,
)

CPU_ONLY_ENV = "QAPGPU_CPU_ONLY"
CPU_ONLY_SETTING = "cpu-only"
XTASK = ["cargo", "xtask", "build-ptx", "--require-ptxas"]
HOW_TO_CPU_ONLY = (f"To build a package without GPU kernels instead (it solves on the CPU engine only), set "
                   f"{CPU_ONLY_ENV}=1 or pass `--config-settings {CPU_ONLY_SETTING}=true` to pip.")


class KernelBuildError(Exception):
    """What failed while building the kernels, in one sentence."""


def _say(line):
    sys.stderr.write(f"qapgpu: {line}\n")
    sys.stderr.flush()


def _truthy(value):
    if isinstance(value, (list, tuple)):  # a setting given twice: the last one counts
        value = value[-1] if value else ""
    return str(value).strip().lower() in ("1", "true", "yes", "on")


def _cpu_only_asked(config_settings):
    """Where the CPU-only build was asked for ("" when it was not): pip's config setting
    first, then the environment."""
    settings = config_settings or {}
    if CPU_ONLY_SETTING in settings:
        return f"--config-settings {CPU_ONLY_SETTING}=true" if _truthy(settings[CPU_ONLY_SETTING]) else ""
    return f"{CPU_ONLY_ENV}=1" if _truthy(os.environ.get(CPU_ONLY_ENV, "")) else ""


def _maturin_settings(config_settings):
    """config_settings without ours (maturin reads only its own keys, but says nothing of others)."""
    if not config_settings:
        return config_settings
    return {k: v for k, v in config_settings.items() if k != CPU_ONLY_SETTING}


def repository_root():
    """The qapgpu repository that holds this package (hooks run in python/), or None where
    the package was unpacked without it (an sdist)."""
    root = Path.cwd().resolve().parent
    if (root / "xtask" / "Cargo.toml").is_file() and (root / "device" / "Cargo.toml").is_file():
        return root
    return None


def _nvidia_ptxas():
    """ptxas of the nvidia-cuda-nvcc wheel (site-packages/nvidia/cu13/bin/ptxas), as
    xtask/src/ptx.rs's find_ptxas looks for it."""
    try:
        import nvidia  # namespace package of NVIDIA's wheels
    except ImportError:
        return None
    exe = "ptxas.exe" if os.name == "nt" else "ptxas"
    for base in list(getattr(nvidia, "__path__", [])):
        try:
            subdirs = sorted(os.listdir(base), reverse=True)  # cu13 before cu12
        except OSError:
            continue
        for sub in subdirs:
            candidate = Path(base) / sub / "bin" / exe
            if candidate.is_file():
                return candidate
    return None


def find_ptxas():
    """(path or None, where it came from, version): $PTXAS, else the nvidia-cuda-nvcc build
    requirement, else PATH; None where there is none, for xtask to fetch (it installs the
    same wheel under target/tools). Raises KernelBuildError where the one found does not run."""
    if os.environ.get("PTXAS"):
        path, origin = Path(os.environ["PTXAS"]), "$PTXAS"
    elif _nvidia_ptxas() is not None:
        path, origin = _nvidia_ptxas(), "the nvidia-cuda-nvcc build requirement"
    elif shutil.which("ptxas"):
        path, origin = Path(shutil.which("ptxas")), "PATH"
    else:
        return None, "", ""
    try:
        out = subprocess.run([str(path), "--version"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError) as e:
        raise KernelBuildError(f"ptxas from {origin} ({path}) does not run: {e}") from None
    if out.returncode != 0:
        raise KernelBuildError(f"ptxas from {origin} ({path}) does not run: `ptxas --version` exited with "
                               f"{out.returncode}")
    version = next((w.rstrip(",") for line in out.stdout.splitlines() if "release" in line
                    for w in line.split("release", 1)[1].split()[:1]), "")
    return path, origin, version


def _embedded_summary(root):
    """What the host crate will embed from target/ptx, in words."""
    if os.environ.get("QAPGPU_PTX"):
        return f"the PTX that $QAPGPU_PTX names ({os.environ['QAPGPU_PTX']}) and no machine code"
    ptx_dir = (root / "target" / "ptx") if root else Path("/nonexistent")
    # The PTX split into one module a kernel, which host/build.rs embeds, or the whole file.
    ptx = next((p for p in (ptx_dir / "qapgpu.modules.ptx", ptx_dir / "qapgpu.ptx") if p.is_file()), None)
    if ptx is None or ptx.stat().st_size == 0:
        return "no PTX and no machine code"
    archs = sorted((p.name.split(".")[1] for p in ptx_dir.glob("qapgpu.sm_*.cubin") if p.stat().st_size),
                   key=lambda a: int(a[3:]) if a[3:].isdigit() else 0)
    code = f"machine code for {', '.join(archs)}" if archs else "no machine code"
    return f"PTX of {ptx.stat().st_size / 1e6:.1f} MB and {code}"


def build_kernels():
    """Runs xtask; returns the one-line summary, or raises KernelBuildError."""
    root = repository_root()
    if root is None:
        raise KernelBuildError(f"{Path.cwd().resolve()} is not the python/ folder of a qapgpu repository (no "
                               f"xtask/ and device/ beside it; an sdist does not carry them), so "
                               f"`cargo xtask build-ptx` cannot run")
    ptxas, origin, version = find_ptxas()
    with_ptxas = (f"ptxas {version + ' ' if version else ''}from {origin}" if ptxas else
                  "no ptxas here, so xtask fetches it (the nvidia-cuda-nvcc wheel, into target/tools)")
    _say(f"building the GPU kernels (a few minutes): `{' '.join(XTASK)}` in {root}, {with_ptxas}")
    env = dict(os.environ, PTXAS=str(ptxas)) if ptxas else os.environ
    start = time.monotonic()
    try:
        result = subprocess.run(XTASK, cwd=root, env=env)
    except OSError as e:
        raise KernelBuildError(f"`{' '.join(XTASK)}` could not start ({e}); the Rust toolchain "
                               f"(rustup, rust-toolchain.toml) is needed") from None
    if result.returncode != 0:
        how = f"with ptxas {ptxas} from {origin}" if ptxas else "without ptxas here"
        raise KernelBuildError(f"`{' '.join(XTASK)}` failed (exit status {result.returncode}; its own "
                               f"message is above), {how}")
    return f"GPU kernels built in {time.monotonic() - start:.0f} s; the package embeds {_embedded_summary(root)}"


#: ptxas for the kernels, pinned to the release the register budgets were set against
#: (xtask/src/ptxas.rs). Asked for only where the kernels are built, so a CPU-only build
#: neither downloads it nor needs the package index to have it.
PTXAS_REQUIREMENT = "nvidia-cuda-nvcc==13.5.*; sys_platform != 'darwin'"


def _requires(config_settings):
    return [] if _cpu_only_asked(config_settings) else [PTXAS_REQUIREMENT]


def get_requires_for_build_wheel(config_settings=None):
    return list(maturin.get_requires_for_build_wheel(_maturin_settings(config_settings)) or []) + _requires(config_settings)


def get_requires_for_build_editable(config_settings=None):
    return list(maturin.get_requires_for_build_editable(_maturin_settings(config_settings)) or []) + _requires(config_settings)


def _before_build(config_settings):
    asked = _cpu_only_asked(config_settings)
    if asked:
        # An empty PTX file makes host/build.rs embed nothing, whatever target/ptx holds.
        empty = Path(os.environ.get("TMPDIR", "/tmp")) / f"qapgpu-cpu-only-{os.getpid()}.ptx"
        empty.write_text("")
        os.environ["QAPGPU_PTX"] = str(empty)
        _say(f"CPU-only build ({asked}): the GPU kernels are not built and none are embedded; the package "
             f"solves on the CPU engine only")
        return
    try:
        summary = build_kernels()
    except KernelBuildError as e:
        raise SystemExit(
            f"\nqapgpu: the GPU kernels could not be built, so the build stops rather than give a package that "
            f"silently runs on the CPU only: {e}. The wheel build runs `{' '.join(XTASK)}` in the repository "
            f"root, which needs the repository's Rust toolchain and ptxas ($PTXAS, the nvidia-cuda-nvcc "
            f"build requirement, PATH, or fetched by xtask); docs/python.md says more. {HOW_TO_CPU_ONLY}\n") from None
    _say(summary)


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    _before_build(config_settings)
    return maturin.build_wheel(wheel_directory, _maturin_settings(config_settings), metadata_directory)


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    _before_build(config_settings)
    return maturin.build_editable(wheel_directory, _maturin_settings(config_settings), metadata_directory)
