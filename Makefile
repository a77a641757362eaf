# thoat: build, test, benchmark. EXE= names the engine binary (OpenBench style).
EXE ?= thoat
CARGO ?= cargo

# The browser test (tests/browser): Debian's Chromium driven by playwright-core.
CHROMIUM ?= /usr/bin/chromium
BROWSER_TEST_DIR := tests/browser

.PHONY: build test lint perft-bench bench criterion clean test-browser

build:
	$(CARGO) build --release
	@if [ "$(EXE)" != "thoat" ]; then cp target/release/thoat $(EXE); fi

# `cargo fmt` does not reach the games' modules (declared inside `for_each_game!`), so
# rustfmt checks those files itself.
FMT_CHECK = $(CARGO) fmt --all -- --check && rustfmt --edition 2021 --check src/variants/*/*.rs

test:
	$(FMT_CHECK)
	$(CARGO) clippy --all-targets -- -D warnings
	$(CARGO) test
	@# The browser test runs where Node and Chromium are present, and always where
	@# REQUIRE_BROWSER_TEST=1 (CI), which then fails if it cannot run.
	@if [ "$(REQUIRE_BROWSER_TEST)" = "1" ] || { command -v node >/dev/null 2>&1 && [ -x "$(CHROMIUM)" ]; }; then \
		$(MAKE) --no-print-directory test-browser; \
	else \
		echo "make test: browser test not run: it needs node and $(CHROMIUM) (make test-browser)"; \
	fi

# Plays the `thoat serve` board in headless Chromium; screenshots go to target/screenshots/.
test-browser:
	@command -v node >/dev/null 2>&1 || { echo "test-browser: node is missing" >&2; exit 1; }
	@[ -x "$(CHROMIUM)" ] || { echo "test-browser: $(CHROMIUM) is missing (apt-get install chromium)" >&2; exit 1; }
	$(CARGO) build
	@if [ ! -d $(BROWSER_TEST_DIR)/node_modules/playwright-core ]; then \
		cd $(BROWSER_TEST_DIR) && npm ci --no-audit --no-fund; \
	fi
	cd $(BROWSER_TEST_DIR) && THOAT_BIN="$(CURDIR)/target/debug/thoat" CHROMIUM="$(CHROMIUM)" node --test board.test.mjs annotate.test.mjs

lint:
	$(FMT_CHECK)
	$(CARGO) clippy --all-targets -- -D warnings

perft-bench:
	$(CARGO) bench --bench perft

# The engine's own bench: fixed-depth search of every game, last line `<N> nodes <NPS> nps`.
bench: build
	./target/release/thoat bench

# All criterion benchmarks (perft, search, move generation per game, the network's loops);
# reports in target/criterion/.
criterion:
	$(CARGO) bench --bench perft --bench search --bench movegen --bench nnue

clean:
	$(CARGO) clean

# The opening books of `thoat match` (docs/matches.md): reproducible from the seed.
.PHONY: openings
openings: build
	for v in chess duck chaturanga skak; do \
		./target/release/thoat openings --variant $$v --count 200 --seed 1 > positions/openings/$$v.epd; \
	done
	./target/release/thoat openings --variant jetan --count 200 --seed 1 --safe-plies 3 \
		> positions/openings/jetan.epd

# A network for one game (docs/nnue.md): self-play positions with scores, training, and a
# quick match of the network against the classical evaluation. Each step prints its time.
# The defaults are the recipe of the built-in networks (chess: NET_HIDDEN=256 NET_BUCKETS=8).
# A small run end to end: make net VARIANT=skak NET_GAMES=200 NET_EPOCHS=5 NET_CHECK_GAMES=20
NET_GAMES ?= 5000
NET_NODES ?= 4000
NET_RANDOM_PLIES ?= 6
NET_SEED ?= 1
NET_THREADS ?= 2
NET_HIDDEN ?= 128
NET_BUCKETS ?= 1
# plain (with the mirror images) or king-mirrored (a mirror image adds nothing there)
NET_LAYOUT ?= plain
NET_EPOCHS ?= 10
NET_CHECK_GAMES ?= 100
.PHONY: net
net: build
	@test -n "$(VARIANT)" || { echo "usage: make net VARIANT=<game>" >&2; exit 1; }
	mkdir -p target/nets nets
	@start=$$(date +%s); \
	./target/release/thoat datagen --variant $(VARIANT) --games $(NET_GAMES) --nodes $(NET_NODES) \
		--threads $(NET_THREADS) --scores --seed $(NET_SEED) --random-plies $(NET_RANDOM_PLIES) \
		--output target/nets/$(VARIANT).txt && \
	echo "make net: datagen took $$(( $$(date +%s) - start )) s"
	@start=$$(date +%s); \
	./target/release/thoat train --variant $(VARIANT) --input target/nets/$(VARIANT).txt \
		--output nets/$(VARIANT).nnue --hidden $(NET_HIDDEN) --buckets $(NET_BUCKETS) \
		--epochs $(NET_EPOCHS) --layout $(NET_LAYOUT) $(if $(filter plain,$(NET_LAYOUT)),--mirror) \
		--threads $(NET_THREADS) && \
	echo "make net: train took $$(( $$(date +%s) - start )) s"
	@start=$$(date +%s); \
	./target/release/thoat match --variant $(VARIANT) \
		--engine cmd=./target/release/thoat name=nnue option.Evaluation=nnue option.EvalFile=nets/$(VARIANT).nnue \
		--engine cmd=./target/release/thoat name=classical option.Evaluation=full --games $(NET_CHECK_GAMES) --tc nodes=5000 \
		--maxmoves 200 --concurrency $(NET_THREADS) --openings positions/openings/$(VARIANT).epd && \
	echo "make net: check match took $$(( $$(date +%s) - start )) s"

# Robustness (docs/robustness.md): the long runs behind the recorded figures.
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

# Evaluation tuning (docs/tuning.md): self-play positions, then the fit, which rewrites
# src/variants/$(VARIANT)/weights.rs (chess, chaturanga, skak). Data in target/tune/.
VARIANT ?= chess
TUNE_GAMES ?= 3000
TUNE_NODES ?= 1000
TUNE_SEED ?= 1
.PHONY: tune
tune: build
	mkdir -p target/tune
	nice -n 10 ./target/release/thoat datagen --variant $(VARIANT) --games $(TUNE_GAMES) \
		--nodes $(TUNE_NODES) --seed $(TUNE_SEED) --threads 1 --output target/tune/$(VARIANT).txt
	nice -n 10 ./target/release/thoat tune --variant $(VARIANT) --input target/tune/$(VARIANT).txt \
		--epochs 300 --min-presence 100 --l2 0.003 --output src/variants/$(VARIANT)/weights.rs
