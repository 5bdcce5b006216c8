package server

import (
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// httpMetrics counts and times requests by route pattern (never by raw path,
// which would make one series per game ID).
func httpMetrics(reg *prometheus.Registry) echo.MiddlewareFunc {
	requests := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "seqleague_http_requests_total",
		Help: "HTTP requests by method, route pattern and status.",
	}, []string{"method", "route", "status"})
	latency := prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "seqleague_http_request_duration_seconds",
		Help:    "HTTP request latency by method and route pattern.",
		Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5},
	}, []string{"method", "route"})
	reg.MustRegister(requests, latency)
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			start := time.Now()
			err := next(c)
			if err != nil {
				c.Error(err) // let the error handler set the final status
			}
			route := c.Path()
			if route == "" {
				route = "unmatched"
			}
			method := metricMethod(c.Request().Method)
			requests.WithLabelValues(method, route, strconv.Itoa(c.Response().Status)).Inc()
			latency.WithLabelValues(method, route).Observe(time.Since(start).Seconds())
			return nil
		}
	}
}

// metricsHandler serves reg. A collector that fails (the asynq queues'
// while Redis is down) does not take the other series with it: the scrape
// serves what it gathered and counts the failure in
// promhttp_metric_handler_errors_total{cause="gathering"}.
func metricsHandler(reg *prometheus.Registry) echo.HandlerFunc {
	h := promhttp.HandlerFor(reg, promhttp.HandlerOpts{ErrorHandling: promhttp.ContinueOnError, Registry: reg})
	return echo.WrapHandler(h)
}

// metricMethod is a request's method as a metric label: the methods of
// HTTP, and "OTHER" for any other word a client sends, which would
// otherwise start a new series per request.
func metricMethod(m string) string {
	switch m {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
		http.MethodDelete, http.MethodOptions, http.MethodConnect, http.MethodTrace:
		return m
	}
	return "OTHER"
}
