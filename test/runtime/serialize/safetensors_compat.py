"""The Python side of SafetensorsPythonTest: files from Python's safetensors
package (the reference implementation) for skc to read, and skc's files
checked with it.

  safetensors_compat.py probe          exits 0 if safetensors and numpy load
  safetensors_compat.py write FILE     writes the expected tensors
  safetensors_compat.py check FILE     checks FILE holds them, and the
                                       tensors skc adds when it rewrites it
"""
import sys

EXPECTED_METADATA = {"format": "np", "written_by": "safetensors"}


def expected(np):
    return {
        "bool": np.arange(7) % 3 == 0,
        "u8": np.arange(250, dtype=np.uint8),
        "i8": np.arange(-100, 100, dtype=np.int8).reshape(20, 10),
        "i16": np.arange(-300, 300, 7, dtype=np.int16),
        "i32": np.arange(24, dtype=np.int32).reshape(2, 3, 4) * -5,
        "i64": np.int64(2**40) + np.arange(5, dtype=np.int64),
        "f16": (np.arange(12, dtype=np.float16) / 4).reshape(3, 4),
        "f32": (np.arange(12, dtype=np.float32) * 0.5).reshape(3, 4),
        "f64": np.linspace(-1, 1, 9),
        "scalar": np.array(3.25, dtype=np.float32),
        "empty": np.zeros((0, 4), dtype=np.float32),
    }


def check(path):
    import numpy as np
    import safetensors
    from safetensors import safe_open
    from safetensors.numpy import load_file

    want = expected(np)
    with open(path, "rb") as f:
        raw = dict(safetensors.deserialize(f.read()))
    # numpy has no bfloat16: skc's bf16 tensor is checked from its bytes.
    numpy_names = [n for n in raw if raw[n]["dtype"] != "BF16"]
    with safe_open(path, framework="numpy") as f:
        got = {n: f.get_tensor(n) for n in numpy_names}
        metadata = f.metadata()
    if metadata != EXPECTED_METADATA:
        sys.exit(f"metadata {metadata!r}, expected {EXPECTED_METADATA!r}")
    for name, value in want.items():
        if name not in got:
            sys.exit(f"tensor {name!r} is missing")
        g = got[name]
        if g.dtype != value.dtype or g.shape != value.shape:
            sys.exit(f"{name}: {g.dtype}{g.shape}, expected "
                     f"{value.dtype}{value.shape}")
        if not np.array_equal(g, value):
            sys.exit(f"{name}: values differ:\n{g}\nexpected\n{value}")
    if "f32_t" in got and not np.array_equal(got["f32_t"], want["f32"].T):
        sys.exit(f"f32_t: values differ:\n{got['f32_t']}")
    if "bf16" in raw:
        spec = raw["bf16"]
        halves = np.frombuffer(bytes(spec["data"]), dtype=np.uint16)
        values = (halves.astype(np.uint32) << 16).view(np.float32)
        if spec["shape"] != [4] or list(values) != [1.0, -2.0, 0.5, 3.0]:
            sys.exit(f"bf16: {spec['shape']} {list(values)}")
    print(f"ok: {len(got)} tensors", "and bf16" if "bf16" in raw else "")


def main():
    command = sys.argv[1]
    if command == "probe":
        import numpy  # noqa: F401
        import safetensors.numpy  # noqa: F401
        return
    if command == "write":
        import numpy as np
        from safetensors.numpy import save_file
        save_file(expected(np), sys.argv[2], metadata=EXPECTED_METADATA)
        return
    if command == "check":
        check(sys.argv[2])
        return
    sys.exit(f"unknown command {command!r}")


if __name__ == "__main__":
    main()
