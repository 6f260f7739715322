// An approval workflow's graph (docs/api.md, "Approval workflows"): the nodes and edges a definition
// declares, checked as the pages' linter checks them, and compiled into the runtime view every
// definition answer shows (`compiled`: forward edges with their predicates, and the loop regions
// derived from marked reject back-edges). Pure: the services check and compile before a write, the
// state machine (workflow-machine.ts) routes on the compiled view.
import { Refusal } from './refusal.js';

export type NodeType = 'agent' | 'human' | 'notification' | 'webhook';
export type EdgeRole = 'approve' | 'reject' | 'always' | 'exhausted' | 'custom';

export interface WorkflowNode {
  nodeId: string;
  type: NodeType;
  config: Record<string, unknown>;
  slaMs?: number;
  name?: string;
  description?: string;
}

/** An edge's end as authored: a bare node id, or the object forms (groups are refused: docs/decisions.md). */
export type EdgeEndpoint = string | { kind: 'node'; nodeId: string } | { kind: 'group'; groupId: string };

export interface WorkflowEdge {
  from: EdgeEndpoint;
  to: EdgeEndpoint;
  on?: EdgeRole;
  when?: string;
  loop?: { maxIterations: number };
}

/** A predicate over a step's output, as JSON (the pages' JSON-AST). */
export type JsonAst = { [key: string]: unknown };

export interface ForwardEdge {
  from: string;
  to: string;
  role: EdgeRole;
  when: JsonAst | null;
}

export interface LoopRegion {
  loopId: string;
  entryNodeId: string;
  bodyNodeIds: string[];
  maxIterations: number;
  onExhausted: { routeToNodeId: string } | null;
}

export interface CompiledGraph {
  forwardEdges: ForwardEdge[];
  loops: LoopRegion[];
}

/** The graph a definition declares: what compile() reads of it. */
export interface Graph {
  nodes: readonly WorkflowNode[];
  edges: readonly WorkflowEdge[];
}

const invalid = (message: string) => new Refusal('INVALID_ARGUMENT', message);

const decided = (value: string): JsonAst => ({ op: 'eq', args: [{ var: 'output.decision' }, value] });

/** The node an endpoint names; a group endpoint is refused (parallel groups are not run here: docs/decisions.md). */
function endpointNode(e: EdgeEndpoint): string {
  if (typeof e === 'string') return e;
  if (e.kind === 'node') return e.nodeId;
  throw invalid(`edges: group endpoint ${JSON.stringify(e.groupId)}: parallel groups are not supported on a self-hosted server`);
}

/** Node ids reachable from `start` over `edges` (start included). */
function reachable(start: string, edges: readonly { from: string; to: string }[]): Set<string> {
  const seen = new Set([start]);
  const queue = [start];
  for (let node = queue.shift(); node !== undefined; node = queue.shift())
    for (const e of edges)
      if (e.from === node && !seen.has(e.to)) {
        seen.add(e.to);
        queue.push(e.to);
      }
  return seen;
}

/** Checks one node's config beyond its schema, with the pages' messages. */
function checkNode(node: WorkflowNode): void {
  const c = node.config;
  if (node.type === 'agent' && c.url === undefined && c.urlPath === undefined)
    throw invalid(
      `APPROVAL_AGENT_NODE_REQUIRES_URL_OR_URLPATH: agent node ${JSON.stringify(node.nodeId)} sets neither url nor urlPath`,
    );
  if (node.type === 'human') {
    const reviewers = c.reviewers as { userId: string; mandatory?: boolean }[] | undefined;
    const ids = c.reviewerIds as string[] | undefined;
    if (reviewers !== undefined && ids !== undefined) throw invalid('cannot set both reviewerIds and reviewers, use one');
    const list = reviewers?.map((r) => r.userId) ?? ids ?? [];
    if (list.length === 0) throw invalid('at least one of reviewerIds or reviewers must be provided');
    if (new Set(list).size !== list.length) throw invalid('reviewer userIds must be unique');
    if (reviewers !== undefined && !reviewers.some((r) => r.mandatory === true))
      throw invalid('reviewers must include at least one mandatory reviewer');
  }
  if (node.type === 'notification') {
    if (c.channel === 'email' && !(Array.isArray(c.recipients) && c.recipients.length > 0))
      throw invalid('notification node with channel="email" requires a non-empty recipients array');
    if (c.channel === 'slack' && typeof c.slackTarget !== 'string')
      throw invalid('notification node with channel="slack" requires a slackTarget (channel id or incoming-webhook URL)');
    if (c.format === 'slack-blocks' && c.channel !== 'slack')
      throw invalid(
        'APPROVAL_NOTIFICATION_SLACK_BLOCKS_REQUIRES_SLACK: format "slack-blocks" is valid only on the slack channel',
      );
  }
  if (node.type === 'webhook' && c.authMode === 'token' && typeof c.authTokenHeader !== 'string')
    throw invalid('webhook node with authMode="token" requires authTokenHeader to be set');
}

/** Parses an edge's `when` (JSON text of an object); refused when it is not. */
function parseWhen(when: string, at: string): JsonAst {
  let parsed: unknown;
  try {
    parsed = JSON.parse(when);
  } catch {
    throw invalid(`${at}.when: not JSON`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed) || typeof (parsed as JsonAst).op !== 'string')
    throw invalid(`${at}.when: a JSON object with an "op"`);
  return parsed as JsonAst;
}

/**
 * Checks a definition's graph as the pages' linter does (each refusal names its rule) and compiles it:
 * forward edges in authored order with their predicates, and one loop region per marked reject
 * back-edge (its body: the nodes on forward paths from its entry back to its source).
 */
export function compile(graph: Graph): CompiledGraph {
  const nodes = new Map<string, WorkflowNode>();
  for (const node of graph.nodes) {
    if (nodes.has(node.nodeId)) throw invalid(`duplicate-node-id: ${JSON.stringify(node.nodeId)}`);
    nodes.set(node.nodeId, node);
  }
  for (const node of graph.nodes) checkNode(node);
  const edges = graph.edges.map((e, i) => ({
    from: endpointNode(e.from),
    to: endpointNode(e.to),
    on: e.on ?? 'always',
    e,
    at: `edges/${i}`,
  }));
  for (const { from, to, on, e, at } of edges) {
    for (const id of [from, to])
      if (!nodes.has(id)) throw invalid(`dangling-edge: ${at} names node ${JSON.stringify(id)}, not declared`);
    if (on === 'custom' && !e.when) throw invalid(`APPROVAL_EDGE_CUSTOM_REQUIRES_WHEN: ${at}`);
    if (on !== 'custom' && e.when !== undefined) throw invalid(`APPROVAL_EDGE_WHEN_ONLY_FOR_CUSTOM: ${at}`);
    if (e.loop !== undefined && on !== 'reject') throw invalid(`APPROVAL_EDGE_LOOP_REQUIRES_REJECT: ${at}`);
  }
  const forward = edges.filter((x) => x.e.loop === undefined && x.on !== 'exhausted');
  // The forward graph must be acyclic: only marked reject loop-backs may revisit a node.
  for (const x of forward)
    if (reachable(x.to, forward).has(x.from)) {
      if (x.on === 'reject') throw invalid(`APPROVAL_EDGE_REJECT_CYCLE_REQUIRES_LOOP: ${x.at}`);
      throw invalid(`cycle-detected: ${x.at} closes a cycle; only marked reject loop-backs may revisit a node`);
    }
  const loops: LoopRegion[] = [];
  const inLoop = new Set<string>();
  for (const x of edges.filter((y) => y.e.loop !== undefined)) {
    const fromEntry = reachable(x.to, forward);
    if (!fromEntry.has(x.from)) throw invalid(`APPROVAL_EDGE_LOOP_REQUIRES_BACK_EDGE: ${x.at}`);
    const reversed = forward.map((y) => ({ from: y.to, to: y.from }));
    const toSource = reachable(x.from, reversed);
    const body = graph.nodes.map((n) => n.nodeId).filter((id) => fromEntry.has(id) && toSource.has(id));
    for (const id of body) {
      if (inLoop.has(id)) throw invalid(`loop-node-in-multiple-loops: ${JSON.stringify(id)}`);
      inLoop.add(id);
    }
    const exits = body.filter((id) => forward.some((y) => y.from === id && !body.includes(y.to)) || id === x.from);
    if (exits.length !== 1) throw invalid(`loop-body-must-have-single-terminal: ${x.at}`);
    const exhausted = edges.find((y) => y.on === 'exhausted' && y.from === x.from);
    loops.push({
      loopId: `loop_${x.to}__${x.from}`,
      entryNodeId: x.to,
      bodyNodeIds: body,
      maxIterations: x.e.loop!.maxIterations,
      onExhausted: exhausted ? { routeToNodeId: exhausted.to } : null,
    });
  }
  for (const x of edges)
    if (x.on === 'exhausted' && !loops.some((l) => edges.some((y) => y.e.loop && y.from === x.from && l.entryNodeId === y.to)))
      throw invalid(`APPROVAL_EDGE_EXHAUSTED_REQUIRES_LOOP_SIBLING: ${x.at}`);
  for (const node of graph.nodes)
    if (node.type === 'human' && !edges.some((x) => x.from === node.nodeId && x.on === 'reject'))
      throw invalid(
        `APPROVAL_HUMAN_NODE_REQUIRES_REJECT_PATH: human node ${JSON.stringify(node.nodeId)} has no outgoing on:"reject" edge`,
      );
  const routed = [...forward, ...edges.filter((y) => y.on === 'exhausted')];
  const fromRoots = new Set(rootsOf(graph.nodes, routed).flatMap((r) => [...reachable(r, routed)]));
  for (const node of graph.nodes)
    if (!fromRoots.has(node.nodeId)) throw invalid(`unreachable-node: ${JSON.stringify(node.nodeId)} has no path from any root`);
  return {
    forwardEdges: forward.map(({ from, to, on, e, at }) => ({
      from,
      to,
      role: on,
      when:
        on === 'approve'
          ? decided('approve')
          : on === 'reject'
            ? decided('reject')
            : on === 'custom'
              ? parseWhen(e.when!, at)
              : null,
    })),
    loops,
  };
}

/** The nodes no forward or exhausted edge enters, in declared order: where an execution starts. */
export function rootsOf(nodes: readonly WorkflowNode[], forward: readonly { to: string }[]): string[] {
  const entered = new Set(forward.map((e) => e.to));
  return nodes.map((n) => n.nodeId).filter((id) => !entered.has(id));
}
