"""The build backend (python/_build/qapgpu_build.py) without building anything: xtask and
maturin are stand-ins, so these check which switch skips the kernels, what reaches xtask
and maturin, and the message a failed kernel build ends with."""
import importlib.util
import os
import sys
import types
from pathlib import Path

import pytest

BACKEND = Path(__file__).resolve().parents[1] / "_build" / "qapgpu_build.py"


@pytest.fixture
def backend(monkeypatch):
    """The backend module, importing a stand-in maturin that records its calls."""
    if not BACKEND.is_file():
        pytest.skip(f"{BACKEND} is not here (tests run outside the repository)")
    calls = []
    fake = types.ModuleType("maturin")
    for hook in ("build_sdist", "get_requires_for_build_editable", "get_requires_for_build_sdist",
                 "get_requires_for_build_wheel", "prepare_metadata_for_build_editable",
                 "prepare_metadata_for_build_wheel"):
        setattr(fake, hook, lambda *a, **k: None)
    fake.build_wheel = lambda d, settings=None, meta=None: calls.append(("wheel", settings)) or "w.whl"
    fake.build_editable = lambda d, settings=None, meta=None: calls.append(("editable", settings)) or "e.whl"
    monkeypatch.setitem(sys.modules, "maturin", fake)
    spec = importlib.util.spec_from_file_location("qapgpu_build_under_test", BACKEND)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.maturin_calls = calls
    for var in ("QAPGPU_CPU_ONLY", "PTXAS", "QAPGPU_PTX"):
        monkeypatch.delenv(var, raising=False)
    return module


@pytest.fixture
def repo(tmp_path, monkeypatch):
    """A stand-in repository (xtask/ and device/ beside python/), with python/ the cwd."""
    for crate in ("xtask", "device"):
        (tmp_path / crate).mkdir()
        (tmp_path / crate / "Cargo.toml").write_text("")
    (tmp_path / "python").mkdir()
    monkeypatch.chdir(tmp_path / "python")
    return tmp_path


def fake_ptxas(tmp_path):
    script = tmp_path / "ptxas"
    script.write_text("#!/bin/sh\necho 'Cuda compilation tools, release 13.9, V13.9.1'\n")
    script.chmod(0o755)
    return script


def fake_xtask(code):
    """An xtask stand-in: a Python one-liner run in the repository root."""
    return [sys.executable, "-c", code]


@pytest.mark.skipif(os.name == "nt", reason="shell-script ptxas")
def test_the_kernels_are_built_before_maturin_with_the_ptxas_found(backend, repo, monkeypatch, capsys):
    monkeypatch.setenv("PTXAS", str(fake_ptxas(repo)))
    monkeypatch.setattr(backend, "XTASK", fake_xtask(
        "import os, pathlib; d = pathlib.Path('target/ptx'); d.mkdir(parents=True); "
        "(d / 'qapgpu.modules.ptx').write_text('x' * 2_000_000); "
        "[(d / f'qapgpu.{a}.cubin').write_bytes(b'c') for a in ('sm_90', 'sm_75', 'sm_120')]; "
        "assert os.environ['PTXAS'].endswith('ptxas')"))
    assert backend.build_wheel("out", {"maturin.build-args": "--locked", "cpu-only": "false"}) == "w.whl"
    assert backend.maturin_calls == [("wheel", {"maturin.build-args": "--locked"})]
    err = capsys.readouterr().err
    assert "qapgpu: building the GPU kernels" in err and "ptxas 13.9 from $PTXAS" in err
    assert "embeds PTX of 2.0 MB and machine code for sm_75, sm_90, sm_120" in err


@pytest.mark.parametrize("how", ["env", "setting"])
def test_a_cpu_only_build_skips_xtask_and_says_what_it_embeds(backend, repo, monkeypatch, capsys, how):
    monkeypatch.setattr(backend, "XTASK", fake_xtask("raise SystemExit('xtask must not run')"))
    monkeypatch.setattr(backend.subprocess, "run", lambda *a, **k: pytest.fail("nothing may run"))
    if how == "env":
        monkeypatch.setenv("QAPGPU_CPU_ONLY", "1")
        settings = None
    else:
        settings = {"cpu-only": "true"}
    assert backend.build_editable("out", settings) == "e.whl"
    assert backend.maturin_calls == [("editable", {} if settings else None)]
    err = capsys.readouterr().err
    assert "CPU-only build" in err and "none are embedded" in err
    # host/build.rs is pointed at an empty PTX, so a stale target/ptx is not embedded.
    ptx = os.environ.pop("QAPGPU_PTX")
    assert Path(ptx).read_text() == ""
    assert backend.get_requires_for_build_wheel(settings or {"cpu-only": "true"}) == []


def test_ptxas_is_a_build_requirement_only_where_kernels_are_built(backend, repo):
    assert any(r.startswith("nvidia-cuda-nvcc==13.5") for r in backend.get_requires_for_build_wheel(None))
    assert any(r.startswith("nvidia-cuda-nvcc==13.5") for r in backend.get_requires_for_build_editable({}))


def test_the_setting_overrides_the_environment(backend, repo, monkeypatch):
    monkeypatch.setenv("QAPGPU_CPU_ONLY", "1")
    assert backend._cpu_only_asked({"cpu-only": "false"}) == ""
    assert backend._cpu_only_asked(None) == "QAPGPU_CPU_ONLY=1"
    monkeypatch.setenv("QAPGPU_CPU_ONLY", "0")
    assert backend._cpu_only_asked({}) == ""


def assert_clear_failure(err, what):
    text = str(err.value.code)
    assert text.count("\n\n") == 0 and what in text
    assert "QAPGPU_CPU_ONLY=1" in text and "--config-settings cpu-only=true" in text


def test_outside_a_repository_the_build_fails_clearly(backend, tmp_path, monkeypatch):
    (tmp_path / "python").mkdir()
    monkeypatch.chdir(tmp_path / "python")
    with pytest.raises(SystemExit) as err:
        backend.build_wheel("out")
    assert_clear_failure(err, "is not the python/ folder of a qapgpu repository")
    assert backend.maturin_calls == []


def test_a_ptxas_that_does_not_run_fails_clearly(backend, repo, monkeypatch):
    monkeypatch.setenv("PTXAS", "/nonexistent/ptxas")
    monkeypatch.setattr(backend, "XTASK", fake_xtask("raise SystemExit('xtask must not run')"))
    with pytest.raises(SystemExit) as err:
        backend.build_wheel("out")
    assert_clear_failure(err, "ptxas from $PTXAS (/nonexistent/ptxas) does not run")
    assert backend.maturin_calls == []


@pytest.mark.skipif(os.name == "nt", reason="shell-script ptxas")
def test_a_failing_xtask_fails_clearly(backend, repo, monkeypatch):
    monkeypatch.setenv("PTXAS", str(fake_ptxas(repo)))
    monkeypatch.setattr(backend, "XTASK", fake_xtask("raise SystemExit(3)"))
    with pytest.raises(SystemExit) as err:
        backend.build_wheel("out")
    assert_clear_failure(err, "failed (exit status 3; its own message is above)")
    assert backend.maturin_calls == []
