# pgrst-lab. The two commands a newcomer needs:
#   make run    build, install PostgreSQL if missing, bring up the local stack,
#               load the fixture and run the socket-vs-tcp experiment
#   make test   go vet and the tests (real PostgreSQL, real systemd when present)
GO       ?= go
BIN      ?= bin
# The stack's state dir: .lab here, unless we are root and the postgres user
# cannot reach this directory (a checkout under /root, a 0700 home): then a
# directory under /var/lib/pgrst-lab named after this checkout.
DIR      ?= $(shell if [ "$$(id -u)" = 0 ] && ! runuser -u postgres -- test -x "$(CURDIR)" 2>/dev/null; \
              then echo /var/lib/pgrst-lab/$$(printf %s "$(CURDIR)" | sha256sum | cut -c1-8); else echo .lab; fi)
RESULTS  ?= results
EXPERIMENT ?= socket-vs-tcp
VERSION  ?= $(shell git describe --always --dirty 2>/dev/null || echo dev)
LDFLAGS  := -X main.version=$(VERSION)

.PHONY: all build run test vet fmt-check bench bench-loadgen bench-loadgen-real aa-rate deps-postgres stack-down clean

all: build

build:
	$(GO) build -ldflags "$(LDFLAGS)" -o $(BIN)/lab ./cmd/lab
	$(GO) build -o $(BIN)/postgrest-mini ./cmd/postgrest-mini

# Installs PostgreSQL with apt when it is missing and we are root; otherwise
# prints the one command to run.
deps-postgres:
	@if ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || command -v initdb >/dev/null 2>&1; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	  echo "installing PostgreSQL (apt-get install postgresql)"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null; \
	else echo "PostgreSQL is missing: run  sudo apt-get install -y postgresql  and try again" >&2; exit 1; fi

run: deps-postgres build
	$(BIN)/lab stack up --dir $(DIR)
	$(BIN)/lab fixture chinook --dir $(DIR)
	$(BIN)/lab run $(EXPERIMENT) --dir $(DIR) --results $(RESULTS)

stack-down:
	$(BIN)/lab stack down --dir $(DIR)

vet: fmt-check
	$(GO) vet ./...

# Fails when a Go file is not gofmt'ed (lists the files).
fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed on:" >&2; echo "$$out" >&2; exit 1; fi

# -timeout bounds a hung package: cmd/lab alone took 20 minutes on
# 2026-12-05's slower machine (12 on 2026-12-04's); CI stops at 90.
test: vet
	$(GO) test -race -count=1 -timeout 45m ./...

bench:
	$(GO) test -run '^$$' -bench . -benchtime 2x ./...

bench-loadgen:
	bash loadgen/bench/compare-wrk.sh

# The generator against wrk and vegeta on real PostgREST ($$LAB_POSTGREST), one run.
bench-loadgen-real:
	bash loadgen/bench/real-postgrest.sh

clean:
	rm -rf $(BIN)

# A/A self-check on the local stack: 20 runs, want >= 19 with "no difference".
aa-rate: build
	bash experiments/aa-rate.sh 20
