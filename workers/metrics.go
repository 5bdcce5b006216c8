package workers

import (
	"fmt"

	"github.com/hibiken/asynq"
	"github.com/prometheus/client_golang/prometheus"
)

// QueueCollector exports asynq queue sizes to Prometheus, read from Redis at
// scrape time so that every process reports the shared truth.
type QueueCollector struct {
	inspector *asynq.Inspector
	size      *prometheus.Desc
	latency   *prometheus.Desc
	processed *prometheus.Desc
	failed    *prometheus.Desc
}

// NewQueueCollector builds a collector over inspector.
func NewQueueCollector(inspector *asynq.Inspector) *QueueCollector {
	return &QueueCollector{
		inspector: inspector,
		size:      prometheus.NewDesc("seqleague_asynq_tasks", "Tasks in each queue by state.", []string{"queue", "state"}, nil),
		latency:   prometheus.NewDesc("seqleague_asynq_queue_latency_seconds", "Age of the oldest pending task.", []string{"queue"}, nil),
		processed: prometheus.NewDesc("seqleague_asynq_processed_today", "Tasks processed today (UTC).", []string{"queue"}, nil),
		failed:    prometheus.NewDesc("seqleague_asynq_failed_today", "Tasks failed today (UTC).", []string{"queue"}, nil),
	}
}

func (c *QueueCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- c.size
	ch <- c.latency
	ch <- c.processed
	ch <- c.failed
}

// Collect reads every queue's figures. A queue it cannot read (Redis is
// down, say) is an invalid metric, which the scrape reports as an error,
// rather than series that silently vanish.
func (c *QueueCollector) Collect(ch chan<- prometheus.Metric) {
	queues, err := c.inspector.Queues()
	if err != nil {
		ch <- prometheus.NewInvalidMetric(c.size, fmt.Errorf("asynq queues: %w", err))
		return
	}
	for _, q := range queues {
		info, err := c.inspector.GetQueueInfo(q)
		if err != nil {
			ch <- prometheus.NewInvalidMetric(c.size, fmt.Errorf("asynq queue %s: %w", q, err))
			continue
		}
		for state, n := range map[string]int{
			"pending": info.Pending, "active": info.Active, "scheduled": info.Scheduled,
			"retry": info.Retry, "archived": info.Archived, "completed": info.Completed,
		} {
			ch <- prometheus.MustNewConstMetric(c.size, prometheus.GaugeValue, float64(n), q, state)
		}
		ch <- prometheus.MustNewConstMetric(c.latency, prometheus.GaugeValue, info.Latency.Seconds(), q)
		ch <- prometheus.MustNewConstMetric(c.processed, prometheus.GaugeValue, float64(info.Processed), q)
		ch <- prometheus.MustNewConstMetric(c.failed, prometheus.GaugeValue, float64(info.Failed), q)
	}
}
