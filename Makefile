# thoat: build, test, benchmark. EXE= names the engine binary (OpenBench style).
EXE ?= thoat
CARGO ?= cargo

.PHONY: build test lint perft-bench bench clean

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

clean:
	$(CARGO) clean

# Robustness (README § Robustness): the long runs behind the recorded figures.
.PHONY: fuzz soak storm-long latency
fuzz: build
	for t in fen move uci; do nice -n 10 target/release/thoat fuzz --target $$t --iterations 1000000 --seed 20261129; done

soak: build
	nice -n 10 target/release/thoat soak --games 2000 --nodes 200 --seed 20261129

storm-long:
	THOAT_STORM_ACTIONS=20000 THOAT_STORM_SEED=777 nice -n 10 $(CARGO) test --test storm protocol -- --nocapture

latency: build
	target/release/thoat latency --samples 300
	target/release/thoat latency --variant chess --samples 20 --hash 256 --analysis-secs 120
