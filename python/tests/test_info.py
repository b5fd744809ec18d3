"""qapgpu.info(): its fields and types, the engine it names, and the machine code the
package carries (a package built with its kernels has PTX and at least sm_90's cubin)."""
import os
import re

import numpy as np
import pytest

import qapgpu


def test_info_is_exported():
    assert "info" in qapgpu.__all__
    assert callable(qapgpu.info)


def test_info_fields_and_types():
    i = qapgpu.info()
    assert isinstance(i, dict)
    assert {"engine", "reason", "gpus", "driver", "ptx_bytes", "cubins", "version"} <= set(i)
    assert i["engine"] in ("gpu", "cpu")
    assert i["reason"] is None or (isinstance(i["reason"], str) and i["reason"])
    assert isinstance(i["ptx_bytes"], int) and i["ptx_bytes"] >= 0
    assert isinstance(i["cubins"], dict)
    for arch, size in i["cubins"].items():
        assert re.fullmatch(r"sm_\d+", arch), arch
        assert isinstance(size, int) and size > 0
    assert i["driver"] is None or re.fullmatch(r"\d+\.\d+", i["driver"])
    assert isinstance(i["gpus"], list)
    for k, g in enumerate(i["gpus"]):
        assert g["ordinal"] == k
        assert isinstance(g["name"], str) and g["name"]
        major, minor = map(int, g["compute_capability"].split("."))
        assert g["arch"] == f"sm_{major * 10 + minor}"
        assert isinstance(g["memory_bytes"], int) and g["memory_bytes"] > 0
        assert re.fullmatch(r"sm_\d+ machine code|PTX, JIT-compiled for sm_\d+( \(QAPGPU_JIT=1\))?|nothing: no PTX embedded",
                            g["code"])
    assert i["version"] is None or isinstance(i["version"], str)


def test_engine_and_reason_agree():
    i = qapgpu.info()
    assert (i["engine"] == "gpu") == (i["reason"] is None)
    assert i["reason"] == qapgpu.gpu_unavailable_reason()
    if i["engine"] == "gpu":
        assert i["gpus"], "the GPU engine needs a GPU"
        assert i["ptx_bytes"] > 0 or i["cubins"]


def test_without_a_gpu_the_engine_is_the_cpu_with_a_reason():
    i = qapgpu.info()
    if i["gpus"]:
        pytest.skip(f"this machine has a GPU ({i['gpus'][0]['name']})")
    assert i["engine"] == "cpu"
    assert isinstance(i["reason"], str) and i["reason"]


def test_a_solve_says_the_engine_info_named():
    i = qapgpu.info()
    r = np.random.default_rng(3)
    A, B = r.integers(0, 50, (12, 12)), r.integers(0, 50, (12, 12))
    res = qapgpu.quadratic_assignment(A, B, options={"time_limit": 0.2, "rng": 1})
    assert res.engine == i["engine"]
    assert isinstance(res.device, str) and res.device
    if i["engine"] == "gpu":
        assert i["gpus"][0]["name"] in res.device
    else:
        assert any(i["reason"] in n for n in res.notes)


def test_the_gpu_loads_machine_code_where_a_cubin_fits():
    i = qapgpu.info()
    for g in i["gpus"]:
        major, minor = map(int, g["compute_capability"].split("."))
        fitting = [a for a in i["cubins"] if int(a[3:]) // 10 == major and int(a[3:]) % 10 <= minor]
        if os.environ.get("QAPGPU_JIT") == "1":
            assert g["code"] == f"PTX, JIT-compiled for {g['arch']} (QAPGPU_JIT=1)"
        elif fitting:
            assert g["code"] == f"{max(fitting, key=lambda a: int(a[3:]))} machine code"
        elif i["ptx_bytes"]:
            assert g["code"] == f"PTX, JIT-compiled for {g['arch']}"


def test_a_package_built_with_its_kernels_carries_ptx_and_sm_90():
    i = qapgpu.info()
    if i["ptx_bytes"] == 0:
        pytest.skip("this package was built CPU-only (QAPGPU_CPU_ONLY=1 or --config-settings cpu-only=true): "
                    "info()['ptx_bytes'] == 0")
    assert i["ptx_bytes"] > 1000
    assert "sm_90" in i["cubins"], f"cubins embedded: {sorted(i['cubins'])}"
