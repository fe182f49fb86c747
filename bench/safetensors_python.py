"""Python's safetensors on the files skc-bench-checkpoint times, for its
reference rows. Prints one line per case: "<case> <median ms>".

  safetensors_python.py INDEX_JSON ONE_GIB_FILE REPETITIONS
"""
import json
import os
import statistics
import sys
import time


def median_ms(fn, repetitions):
    times = []
    for _ in range(repetitions):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times)


def main():
    from safetensors import safe_open
    index_path, big_file, repetitions = sys.argv[1], sys.argv[2], int(sys.argv[3])
    with open(index_path) as f:
        weight_map = json.load(f)["weight_map"]
    directory = os.path.dirname(index_path)
    shards = sorted(set(weight_map.values()))

    def headers_only():
        # What loading onto meta is in Python: every shard opened, every
        # tensor's shape and dtype read, no data.
        shapes = {}
        for shard in shards:
            with safe_open(os.path.join(directory, shard), framework="numpy") as f:
                for name in f.keys():
                    s = f.get_slice(name)
                    shapes[name] = (s.get_shape(), s.get_dtype())
        assert len(shapes) == len(weight_map)

    def load_big():
        with safe_open(big_file, framework="numpy") as f:
            return {name: f.get_tensor(name) for name in f.keys()}

    print("llama70B-headers", median_ms(headers_only, repetitions))
    print("one-gib-load", median_ms(load_big, max(3, repetitions // 10)))


if __name__ == "__main__":
    main()
