# Two commands do everything on a fresh Debian machine with Node 20: `make demo` and `make test`.
.PHONY: setup demo test typecheck lint unit bench soak clean

setup:
	@bash scripts/setup.sh

demo: setup
	node bin/gen.js report --out report

typecheck: setup
	npx tsc --noEmit -p .

lint: setup
	npx eslint .

unit: setup
	npx vitest run

test: setup typecheck lint unit

bench: setup
	npx tsx bench/run.ts

soak: setup
	SOAK=1 npx vitest run tests/soak

clean:
	rm -rf build out report
