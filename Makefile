# thoat: build, test, benchmark. EXE= names the engine binary (OpenBench style).
EXE ?= thoat
CARGO ?= cargo

.PHONY: build test lint perft-bench bench criterion clean

build:
	$(CARGO) build --release
	@if [ "$(EXE)" != "thoat" ]; then cp target/release/thoat $(EXE); fi

test:
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --all-targets -- -D warnings
	$(CARGO) test

lint:
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --all-targets -- -D warnings

perft-bench:
	$(CARGO) bench --bench perft

# The engine's own bench: fixed-depth search of every game, last line `<N> nodes <NPS> nps`.
bench: build
	./target/release/thoat bench

# All criterion benchmarks (perft, search, move generation per game); reports in
# target/criterion/.
criterion:
	$(CARGO) bench --bench perft --bench search --bench movegen

clean:
	$(CARGO) clean
