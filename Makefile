# Seqleague. `make run` and `make test` do all the set-up they need.
GO        ?= go
BIN       := bin/seqleague
PKGS      := ./...
BENCHTIME ?= 2s

.PHONY: run build test test-go bench lint migrate tools

## run: API and workers in one process; with no DATABASE_URL / REDIS_URL it
## starts its own PostgreSQL cluster under ./.data and an in-process Redis.
run: build
	./$(BIN)

build:
	$(GO) build -o $(BIN) ./cmd/seqleague

## test: everything the project has, Go with the race detector.
test: lint test-go

test-go:
	$(GO) test -race -count=1 -timeout 20m $(PKGS)

## bench: the engine and platform benchmarks (figures are in README.md).
bench:
	$(GO) test -run '^$$' -bench . -benchmem -benchtime $(BENCHTIME) -cpu 1 ./engine/...

lint:
	@unformatted=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$unformatted" ]; then echo "gofmt needed:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet $(PKGS)

## migrate: apply pending migrations (DATABASE_URL, or the private cluster).
migrate: build
	./$(BIN) migrate up
