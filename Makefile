# Seqleague. `make run` and `make test` do all the set-up they need.
GO        ?= go
NPM       ?= npm
BIN       := bin/seqleague
PKGS      := ./...
BENCHTIME ?= 2s

# The web app (frontend/): npm ci when the lock file changes, npm run build
# when a source changes; go build embeds frontend/dist.
WEB      := frontend
WEB_SRC  := $(shell find $(WEB)/src $(WEB)/public $(WEB)/scripts -type f 2>/dev/null) \
            $(WEB)/index.html $(WEB)/vite.config.ts $(WEB)/tsconfig.json $(WEB)/package.json
WEB_DEPS := $(WEB)/node_modules/.package-lock.json
WEB_DIST := $(WEB)/dist/index.html

.PHONY: run build web browser test test-go test-web test-e2e bench bench-engine bench-platform lint migrate

## run: API and workers in one process; with no DATABASE_URL / REDIS_URL it
## starts its own PostgreSQL cluster under ./.data and an in-process Redis.
run: build
	./$(BIN)

## build: the web app, then the binary that embeds it.
build: web
	$(GO) build -o $(BIN) ./cmd/seqleague

## web: frontend/dist (fails if the initial JavaScript passes 200 KB gzipped).
web: $(WEB_DIST)

$(WEB_DEPS): $(WEB)/package.json $(WEB)/package-lock.json
	cd $(WEB) && $(NPM) ci --no-audit --no-fund
	@touch $@

$(WEB_DIST): $(WEB_DEPS) $(WEB_SRC)
	cd $(WEB) && $(NPM) run build

## test: everything the project has: Go with the race detector, then the web
## app's unit tests (Vitest), then the browser tests (Chromium, real binary).
test: lint test-go test-web test-e2e

test-go:
	$(GO) test -race -count=1 -timeout 20m $(PKGS)

test-web: $(WEB_DEPS)
	cd $(WEB) && $(NPM) test

test-e2e: build browser
	cd $(WEB) && node e2e/run.mjs

# browser: the Chromium the browser tests drive ($(CHROMIUM)), installed
# with apt-get where it is missing and apt-get is at hand (a fresh machine).
CHROMIUM ?= /usr/bin/chromium
browser:
	@[ -x "$(CHROMIUM)" ] || ! command -v apt-get >/dev/null || { \
	  echo "installing chromium for the browser tests"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; }

## bench: every benchmark (figures are in README.md). bench-engine: the
## pure packages on one core; bench-platform: PostgreSQL, Redis and the
## whole program, each workload run once with its figures as metrics.
bench: bench-engine bench-platform

bench-engine:
	$(GO) test -run '^$$' -bench . -benchmem -benchtime $(BENCHTIME) -cpu 1 ./engine/... ./league/competition/ ./league/rating/

bench-platform:
	$(GO) test -run '^$$' -bench 'LeaderboardPage' -benchtime 2000x -timeout 30m ./league/postgres/
	$(GO) test -run '^$$' -bench 'PlayerRank' -benchtime 100x -timeout 30m ./league/postgres/
	$(GO) test -run '^$$' -bench 'Settle' -benchtime 1x -timeout 30m ./league/postgres/
	$(GO) test -run '^$$' -bench 'RatingHistoryPages' -benchtime 3x -timeout 30m ./league/postgres/
	$(GO) test -run '^$$' -bench 'AHeartbeatAtAnOpenTable' -benchtime 20000x -timeout 30m ./league/postgres/
	$(GO) test -run '^$$' -bench 'RedisHeldByCompletedGameTasks' -benchtime 1x -timeout 30m ./workers/
	$(GO) test -run '^$$' -bench 'AnAuthenticatedRequest|BindABodyNearTheLimit' -benchtime 20x -timeout 30m ./server/
	$(GO) test -run '^$$' -bench . -benchtime 1x -timeout 30m ./cmd/seqleague/

lint:
	@unformatted=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$unformatted" ]; then echo "gofmt needed:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet $(PKGS)

## migrate: apply pending migrations (DATABASE_URL, or the private cluster).
migrate: build
	./$(BIN) migrate up
