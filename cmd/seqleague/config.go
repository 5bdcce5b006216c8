package main

import (
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
)

// Config is every setting of the program, read once from the environment.
type Config struct {
	Addr               string
	DatabaseURL        string
	RedisURL           string
	DataDir            string
	JWTSecret          string
	LogLevel           slog.Level
	LogFormat          string
	TrustedProxies     []*net.IPNet
	DBMaxConns         int
	GCPercent          int
	WorkerConcurrency  int
	TimerPollInterval  time.Duration
	ShutdownTimeout    time.Duration
	AccessTokenTTL     time.Duration
	RefreshTokenTTL    time.Duration
	PublicURL          string
	BotDelay           time.Duration
	BotThinkLimit      time.Duration
	FillGrace          time.Duration
	MaxLiveGames       int
	OpenTableLifetime  time.Duration
	MaxStreams         int
	ClubsPerDay        int
	TournamentsPerDay  int
	AuthRateWindow     time.Duration
	AuthRatePerIP      int
	AuthRatePerUser    int
	trustedProxiesText string
}

// setting describes one environment variable: its default and whether its
// value is secret (masked by `seqleague config`).
type setting struct {
	name, def, help string
	secret          bool
}

var settings = []setting{
	{"SEQLEAGUE_ADDR", ":8080", "HTTP listen address", false},
	{"DATABASE_URL", "", "PostgreSQL URL; empty starts a private cluster under the data dir", true},
	{"REDIS_URL", "", "Redis URL; empty runs an in-process miniredis (single-process development mode)", true},
	{"SEQLEAGUE_DATA_DIR", "./.data", "where the private cluster and generated secrets live", false},
	{"JWT_SECRET", "", "HMAC key for access tokens; empty generates one and keeps it in the data dir", true},
	{"SEQLEAGUE_LOG_LEVEL", "info", "debug, info, warn or error", false},
	{"SEQLEAGUE_LOG_FORMAT", "text", "text or json", false},
	{"SEQLEAGUE_TRUSTED_PROXIES", "", "comma-separated CIDRs whose X-Forwarded-For is trusted", false},
	{"SEQLEAGUE_DB_MAX_CONNS", "20", "PostgreSQL connection pool size", false},
	{"SEQLEAGUE_GC_PERCENT", "400", "Go's GC target for serving processes (as GOGC): more memory for fewer collections", false},
	{"SEQLEAGUE_WORKER_CONCURRENCY", "100", "tasks a worker process runs at once", false},
	{"SEQLEAGUE_TIMER_POLL", "200ms", "how often due timers are picked up (bounds timer lateness)", false},
	{"SEQLEAGUE_SHUTDOWN_TIMEOUT", "10s", "how long in-flight requests and tasks may finish after SIGTERM", false},
	{"SEQLEAGUE_ACCESS_TOKEN_TTL", "15m", "lifetime of access tokens", false},
	{"SEQLEAGUE_REFRESH_TOKEN_TTL", "720h", "lifetime of refresh tokens", false},
	{"SEQLEAGUE_AUTH_RATE_WINDOW", "15m", "sliding window of the login and registration limits", false},
	{"SEQLEAGUE_AUTH_RATE_PER_IP", "30", "logins (and, separately, registrations) allowed per client IP per window", false},
	{"SEQLEAGUE_AUTH_RATE_PER_USERNAME", "10", "wrong passwords (and registrations) per username from one client address per window; ten times that from all addresses", false},
	{"SEQLEAGUE_BOT_DELAY", "800ms", "how long a bot seat waits before moving (0s for none)", false},
	{"SEQLEAGUE_BOT_THINK_LIMIT", "2s", "the longest one bot decision may search (0s for no limit)", false},
	{"SEQLEAGUE_FILL_GRACE", "60s", "how long open seats may stay empty after a scheduled start before bots fill them", false},
	{"SEQLEAGUE_MAX_LIVE_GAMES", "20", "casual games one player may have made that wait for players or are being played", false},
	{"SEQLEAGUE_OPEN_TABLE_LIFETIME", "24h", "how long an open casual table that nobody joins, nor is at, waits before it is cancelled (0s: for ever)", false},
	{"SEQLEAGUE_MAX_STREAMS", "32", "game event streams one client (an account, else an address) may hold open on an instance at once", false},
	{"SEQLEAGUE_CLUBS_PER_DAY", "10", "clubs one account (not a site admin) may create in any 24 hours", false},
	{"SEQLEAGUE_TOURNAMENTS_PER_DAY", "20", "tournaments one account (not a site admin) may create in any 24 hours, in all clubs together", false},
	{"SEQLEAGUE_PUBLIC_URL", "http://localhost:8080", "the address users reach (JWT issuer, links in calendars)", false},
}

// LoadConfig reads the environment through getenv.
func LoadConfig(getenv func(string) string) (Config, error) {
	get := func(name string) string {
		if v := getenv(name); v != "" {
			return v
		}
		for _, s := range settings {
			if s.name == name {
				return s.def
			}
		}
		return ""
	}
	var errs []string
	duration := func(name string) time.Duration {
		d, err := time.ParseDuration(get(name))
		if err != nil || d <= 0 {
			errs = append(errs, fmt.Sprintf("%s: %q is not a positive duration", name, get(name)))
		}
		return d
	}
	nonNegativeDuration := func(name string) time.Duration {
		d, err := time.ParseDuration(get(name))
		if err != nil || d < 0 {
			errs = append(errs, fmt.Sprintf("%s: %q is not a duration", name, get(name)))
		}
		return d
	}
	integer := func(name string) int {
		n, err := strconv.Atoi(get(name))
		if err != nil || n <= 0 {
			errs = append(errs, fmt.Sprintf("%s: %q is not a positive integer", name, get(name)))
		}
		return n
	}
	c := Config{
		Addr:               get("SEQLEAGUE_ADDR"),
		DatabaseURL:        get("DATABASE_URL"),
		RedisURL:           get("REDIS_URL"),
		DataDir:            get("SEQLEAGUE_DATA_DIR"),
		JWTSecret:          get("JWT_SECRET"),
		LogFormat:          get("SEQLEAGUE_LOG_FORMAT"),
		DBMaxConns:         integer("SEQLEAGUE_DB_MAX_CONNS"),
		GCPercent:          integer("SEQLEAGUE_GC_PERCENT"),
		WorkerConcurrency:  integer("SEQLEAGUE_WORKER_CONCURRENCY"),
		TimerPollInterval:  duration("SEQLEAGUE_TIMER_POLL"),
		ShutdownTimeout:    duration("SEQLEAGUE_SHUTDOWN_TIMEOUT"),
		AccessTokenTTL:     duration("SEQLEAGUE_ACCESS_TOKEN_TTL"),
		RefreshTokenTTL:    duration("SEQLEAGUE_REFRESH_TOKEN_TTL"),
		AuthRateWindow:     duration("SEQLEAGUE_AUTH_RATE_WINDOW"),
		AuthRatePerIP:      integer("SEQLEAGUE_AUTH_RATE_PER_IP"),
		AuthRatePerUser:    integer("SEQLEAGUE_AUTH_RATE_PER_USERNAME"),
		PublicURL:          strings.TrimRight(get("SEQLEAGUE_PUBLIC_URL"), "/"),
		BotDelay:           nonNegativeDuration("SEQLEAGUE_BOT_DELAY"),
		BotThinkLimit:      nonNegativeDuration("SEQLEAGUE_BOT_THINK_LIMIT"),
		FillGrace:          nonNegativeDuration("SEQLEAGUE_FILL_GRACE"),
		MaxLiveGames:       integer("SEQLEAGUE_MAX_LIVE_GAMES"),
		OpenTableLifetime:  nonNegativeDuration("SEQLEAGUE_OPEN_TABLE_LIFETIME"),
		MaxStreams:         integer("SEQLEAGUE_MAX_STREAMS"),
		ClubsPerDay:        integer("SEQLEAGUE_CLUBS_PER_DAY"),
		TournamentsPerDay:  integer("SEQLEAGUE_TOURNAMENTS_PER_DAY"),
		trustedProxiesText: get("SEQLEAGUE_TRUSTED_PROXIES"),
	}
	if err := c.LogLevel.UnmarshalText([]byte(get("SEQLEAGUE_LOG_LEVEL"))); err != nil {
		errs = append(errs, "SEQLEAGUE_LOG_LEVEL: "+err.Error())
	}
	if c.LogFormat != "text" && c.LogFormat != "json" {
		errs = append(errs, fmt.Sprintf("SEQLEAGUE_LOG_FORMAT: %q is neither text nor json", c.LogFormat))
	}
	for _, cidr := range strings.Split(c.trustedProxiesText, ",") {
		if cidr = strings.TrimSpace(cidr); cidr == "" {
			continue
		}
		_, n, err := net.ParseCIDR(cidr)
		if err != nil {
			errs = append(errs, fmt.Sprintf("SEQLEAGUE_TRUSTED_PROXIES: %v", err))
			continue
		}
		c.TrustedProxies = append(c.TrustedProxies, n)
	}
	// Checked here, before anything starts or migrates, and by `config`.
	if c.JWTSecret != "" && len(c.JWTSecret) < 32 {
		errs = append(errs, "JWT_SECRET: must be at least 32 characters")
	}
	if u, err := url.Parse(c.PublicURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		errs = append(errs, fmt.Sprintf("SEQLEAGUE_PUBLIC_URL: %q is not an http(s) address like https://seqleague.example", c.PublicURL))
	}
	if len(errs) > 0 {
		return c, fmt.Errorf("configuration: %s", strings.Join(errs, "; "))
	}
	abs, err := filepath.Abs(c.DataDir)
	if err != nil {
		return c, err
	}
	c.DataDir = abs
	return c, nil
}

// Print writes every setting with its effective value, secrets masked.
func (c Config) Print(w io.Writer, getenv func(string) string) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tVALUE\tSOURCE\tMEANING")
	for _, s := range settings {
		v, source := getenv(s.name), "env"
		if v == "" {
			v, source = s.def, "default"
		}
		if s.secret && v != "" {
			v = mask(v)
		}
		if v == "" {
			v = "(unset)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", s.name, v, source, s.help)
	}
	tw.Flush()
}

// mask hides a secret but keeps a URL's scheme and host readable.
func mask(v string) string {
	if i := strings.Index(v, "://"); i >= 0 {
		rest := v[i+3:]
		if at := strings.LastIndex(rest, "@"); at >= 0 {
			rest = "****@" + rest[at+1:]
		}
		// A password may also ride in the query (?password=…).
		if path, query, ok := strings.Cut(rest, "?"); ok {
			var params []string
			for _, p := range strings.Split(query, "&") {
				if k, _, _ := strings.Cut(p, "="); strings.Contains(strings.ToLower(k), "pass") {
					p = k + "=****"
				}
				params = append(params, p)
			}
			rest = path + "?" + strings.Join(params, "&")
		}
		return v[:i+3] + rest
	}
	return "****"
}

func newLogger(c Config, w io.Writer) *slog.Logger {
	opts := &slog.HandlerOptions{Level: c.LogLevel}
	if c.LogFormat == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

// writeFileOnce creates path with content unless it exists, and returns the
// content that ends up there.
func writeFileOnce(path string, content []byte) ([]byte, error) {
	if b, err := os.ReadFile(path); err == nil {
		return b, nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if os.IsExist(err) {
		return os.ReadFile(path)
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	_, err = f.Write(content)
	return content, err
}
