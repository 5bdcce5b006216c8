package workers

import (
	"strings"
	"testing"

	"github.com/hibiken/asynq"
	"github.com/prometheus/client_golang/prometheus"
)

// TestAQueueCollectorThatCannotReadRedisSaysSo: the queues' series do not
// silently vanish when Redis cannot be read; the gathering fails with the
// reason.
func TestAQueueCollectorThatCannotReadRedisSaysSo(t *testing.T) {
	in := asynq.NewInspector(asynq.RedisClientOpt{Addr: "127.0.0.1:1"}) // nothing listens there
	defer in.Close()
	reg := prometheus.NewRegistry()
	reg.MustRegister(NewQueueCollector(in))
	_, err := reg.Gather()
	if err == nil || !strings.Contains(err.Error(), "asynq queues") {
		t.Fatalf("gather: %v, want the collector's error", err)
	}
}
