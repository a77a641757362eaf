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

# The opening books of `thoat match` (README, Matches): reproducible from the seed.
.PHONY: openings
openings: build
	for v in chess duck chaturanga skak; do \
		./target/release/thoat openings --variant $$v --count 120 --seed 1 > positions/openings/$$v.epd; \
	done
	./target/release/thoat openings --variant jetan --count 120 --seed 1 --safe-plies 2 \
		> positions/openings/jetan.epd
