# Two commands do everything on a fresh Debian machine with Node 20: `make demo` and `make test`.
.PHONY: setup demo test typecheck lint format unit bench soak clean

setup:
	@bash scripts/setup.sh

demo: setup
	node bin/gen.js report --out report

typecheck: setup
	npx tsc --noEmit -p .

lint: setup
	npx prettier --check .
	npx eslint .
	npx tsx scripts/checkFileNames.ts
	npx depcruise common tools waves hw engines verif synth gpu gen api coruscant bench tests --config .dependency-cruiser.cjs

format: setup
	npx prettier --write .

unit: setup
	npx vitest run

# The type check and the lint run side by side (docs/performance.md, "The static checks"): two
# jobs, or the caller's job server under `make -jN test`; the tests start once both passed.
test: setup
	@$(MAKE) --no-print-directory $(if $(filter -j%,$(MAKEFLAGS)),,-j2) --output-sync=target typecheck lint
	@$(MAKE) --no-print-directory unit

bench: setup
	npx tsx bench/run.ts

soak: setup
	@SETUP_SOAK=1 bash scripts/setup.sh
	SOAK=1 npx vitest run tests/soak

clean:
	rm -rf build .gen-cache dist out report
