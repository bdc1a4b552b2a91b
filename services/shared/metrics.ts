import type { ServiceBroker } from 'moleculer';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * How often the event-loop lag histogram (fiscal_nodejs_eventloop_lag_*) samples: prom-client's
 * default of 10 ms wakes every process 100 times a second, which cost an idle process 6.6 ms of CPU
 * per second against 2.9 at 100 ms and 2.4 without the monitor (2026-11-26, this machine, 10 s
 * each). A stall still shows in the histogram: a sampling timer it delays records how late it ran.
 */
export const EVENT_LOOP_SAMPLE_MS = 100;

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/** A reading taken at scrape time; it may query its service's own database. */
export type GaugeSource = (set: (labels: Record<string, string>, value: number) => void) => Promise<void> | void;

/**
 * The Prometheus metrics of one node (one broker), in a registry of its own rather than
 * prom-client's global one: tests run several nodes in one process, and each node's series carry a
 * `node` label so the gateway can serve every node's figures side by side (services/gateway/metrics-scrape.ts).
 * Services record into it with `metricsOf(this.broker)`; what is only known by asking (outbox lag,
 * dead letters, circuits) is read at scrape time through gauges' `collect`.
 */
export class NodeMetrics {
  readonly registry = new Registry();

  readonly httpRequests = new Counter({
    name: 'fiscal_http_requests_total', help: 'HTTP requests answered by this gateway node, by route template and status.',
    labelNames: ['method', 'route', 'status'] as const, registers: [this.registry],
  });
  readonly httpDuration = new Histogram({
    name: 'fiscal_http_request_duration_seconds', help: 'Time from request to the end of the response, by route template and status.',
    labelNames: ['method', 'route', 'status'] as const, buckets: SECONDS, registers: [this.registry],
  });
  readonly emissionStage = new Histogram({
    name: 'fiscal_emission_stage_duration_seconds', help: 'Duration of each stage of the emission path (services/emission/stage-timer.ts STAGES).',
    labelNames: ['stage'] as const, buckets: SECONDS, registers: [this.registry],
  });
  readonly numberLockWait = new Histogram({
    name: 'fiscal_emission_number_lock_wait_seconds', help: 'Wait for the numbering sequence row lock (SELECT … FOR UPDATE) of one emission.',
    buckets: SECONDS, registers: [this.registry],
  });
  readonly emissionOutcomes = new Counter({
    name: 'fiscal_emission_outcomes_total', help: 'Authority outcomes of transmissions, by model, resulting kind and cStat (empty when there was no answer).',
    labelNames: ['model', 'kind', 'cstat'] as const, registers: [this.registry],
  });
  readonly authorityCalls = new Counter({
    name: 'fiscal_authority_calls_total', help: 'Exchanges with an authority, by UF, model, outcome (answer, failure, http-status, malformed) and the answer\'s root cStat.',
    labelNames: ['uf', 'model', 'outcome', 'cstat'] as const, registers: [this.registry],
  });
  readonly authorityRoundTrip = new Histogram({
    name: 'fiscal_authority_round_trip_seconds', help: 'Round trip of one exchange with an authority (connect, send, answer), by UF and model.',
    labelNames: ['uf', 'model'] as const, buckets: SECONDS, registers: [this.registry],
  });
  readonly webhookAttempts = new Counter({
    name: 'fiscal_webhook_attempts_total', help: 'Webhook delivery attempts, by result: delivered, retry (failed, another attempt scheduled), dead (failed, attempts exhausted: into the DLQ).',
    labelNames: ['result'] as const, registers: [this.registry],
  });

  private readonly sources = new Map<Gauge<string>, Set<GaugeSource>>();

  constructor(nodeID: string) {
    this.registry.setDefaultLabels({ node: nodeID });
    collectDefaultMetrics({ register: this.registry, prefix: 'fiscal_', eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });
  }

  /** A gauge whose value is read from the registered sources at each scrape. */
  private sourcedGauge(name: string, help: string, labelNames: readonly string[]): Gauge<string> {
    const sources = this.sources;
    const gauge: Gauge<string> = new Gauge({
      name, help, labelNames: [...labelNames], registers: [this.registry],
      async collect() {
        gauge.reset();
        for (const source of sources.get(gauge) ?? []) await source((labels, value) => gauge.set(labels, value));
      },
    });
    sources.set(gauge, new Set());
    return gauge;
  }

  readonly circuitState = this.sourcedGauge('fiscal_authority_circuit_state', 'Circuit of each authority key (UF|model|ambiente): 0 closed, 1 half-open, 2 open.', ['authority']);
  readonly outboxLag = this.sourcedGauge('fiscal_outbox_oldest_pending_seconds', 'Age of the oldest outbox row not yet published, per schema (0 when none is pending).', ['schema']);
  readonly outboxPending = this.sourcedGauge('fiscal_outbox_pending', 'Outbox rows not yet published, per schema.', ['schema']);
  readonly webhookDeadLetters = this.sourcedGauge('fiscal_webhook_dead_letters', 'Webhook deliveries that exhausted their attempts and are kept for replay (the DLQ).', []);

  /** Registers a reading for a sourced gauge; returns its removal (call it when the service stops). */
  addSource(gauge: Gauge<string>, source: GaugeSource): () => void {
    const set = this.sources.get(gauge);
    if (!set) throw new Error(`gauge ${(gauge as any).name} takes no sources`);
    set.add(source);
    return () => set.delete(source);
  }
}

const byBroker = new WeakMap<ServiceBroker, NodeMetrics>();

/** This node's metrics, made on first use. */
export function metricsOf(broker: ServiceBroker): NodeMetrics {
  let m = byBroker.get(broker);
  if (!m) byBroker.set(broker, (m = new NodeMetrics(broker.nodeID)));
  return m;
}
