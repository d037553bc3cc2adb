#include "sim/BlockEdits.h"

// The simulation of a block-edited graph and its result mapped back onto the caller's graph
// (docs/Structure.md, "Reports after a block edit"). The edits themselves are in sim/edits/:
// GraphSplice (the splicer both use), LayerEdit (model.layers), MicrobatchEdit (pp.microbatches).
namespace sl {

BlockEditRun planBlockEditRun(const ExecutionGraph& g, const SimKnobs& knobs) {
    // One block edit per run: model.layers, else pp.microbatches (a copy's measured times are its
    // source's, so the blocks of an edited copy cannot be found again).
    BlockEditRun run;
    run.knobs = knobs;
    run.knobs.modelLayers = 0;
    run.knobs.ppMicrobatches = 0;
    run.knobs.ppDegree = 0;
    run.knobs.ppTransfers = true;
    run.knobs.ppSplit = PipelineSplit::Even;
    run.knobs.ppSplitLayers.clear();
    if (knobs.ppDegree > 0) {
        const std::string pp = "pp.degree=" + std::to_string(knobs.ppDegree);
        if (knobs.modelLayers > 0)
            throw KnobError(pp + " together with model.layers=" + std::to_string(knobs.modelLayers) +
                            ": not combined yet");
        run.edit = std::make_shared<BlockEdit>(editPipeline(g, knobs));
        return run;
    }
    auto edit =
        std::make_shared<BlockEdit>(knobs.modelLayers > 0 ? editBlocks(g, BlockEditKnobs{knobs.modelLayers})
                                                          : editMicrobatches(g, knobs.ppMicrobatches));
    if (knobs.modelLayers > 0 && knobs.ppMicrobatches > 0)
        edit->warnings.addForKnob(
            "pp.microbatches", Warn::BlockEditsNotCombined,
            "pp.microbatches=" + std::to_string(knobs.ppMicrobatches) +
                " together with model.layers: not combined yet, pp.microbatches ignored");
    run.edit = std::move(edit);
    return run;
}

SimResult mapBlockEditResult(const ExecutionGraph& g, const BlockEditRun& run, SimResult r,
                             const SimOptions& options) {
    const BlockEdit& edit = *run.edit;
    r.warnings.prepend(edit.warnings);
    r.setup.notes.insert(r.setup.notes.end(), edit.notes.begin(), edit.notes.end());
    if (!edit.active) return r;
    // The edited run itself, for the critical path through the copies, and where the caller's
    // result resolves each of its edges (an edge the edit made: one of the caller's overlay, its
    // ends mapped to the nodes they are or copy). Not with added ranks: their times are per slot
    // of the edited graph, and a second copy of them would double the memory of a large job.
    std::shared_ptr<EditedRun> edited;
    std::shared_ptr<EdgeOverlay> callerEdges;
    if (r.addedRanks.empty()) {
        edited = std::make_shared<EditedRun>();
        edited->edit = run.edit;
        edited->result.nodes = r.nodes;
        edited->result.addedEdges = r.addedEdges;
        edited->result.lastNode = r.lastNode;
        edited->result.lastAdded = r.lastAdded;
        const std::size_t innerEdges =
            edit.graph.edges.size() + (r.addedEdges ? r.addedEdges->edges.size() : 0);
        edited->edgeInCaller.assign(innerEdges, kNoEdge);
        callerEdges = std::make_shared<EdgeOverlay>();
        for (EdgeId e = 0; e < innerEdges; ++e) {
            if (e < edit.edgeOrigin.size() && edit.edgeOrigin[e] != kNoEdge) {
                edited->edgeInCaller[e] = edit.edgeOrigin[e];
                continue;
            }
            GraphEdge made = edited->result.edge(edit.graph, e);
            made.from = edit.sourceOf[made.from];
            made.to = edit.sourceOf[made.to];
            edited->edgeInCaller[e] = static_cast<EdgeId>(g.edges.size() + callerEdges->edges.size());
            callerEdges->edges.push_back(made);
        }
    }
    // A block edit keeps the layout. Unless dp.degree already described the new job, report the
    // degrees and coordinates the edit was planned on, not the defaults of an unedited setup (all 1).
    if (!r.setup.edited) {
        const ParallelStructure& layout = edit.structure;
        if (layout.recognised) {
            r.setup.dp = layout.dp;
            r.setup.tp = layout.tp;
            r.setup.pp = layout.pp;
            for (auto& rank : r.setup.ranks)
                if (rank.source < layout.places.size()) {
                    rank.dp = layout.places[rank.source].dp;
                    rank.tp = layout.places[rank.source].tp;
                    rank.pp = layout.places[rank.source].pp;
                }
        }
    }
    r.setup.edited = true;
    // Back onto the caller's graph: its nodes keep their times in the edited run; an edge the
    // edit made (or re-pointed) binds as the caller's edge it came from, a new one as none.
    auto mapEdge = [&](EdgeId id) {
        if (id == kPhantomPeers || id == kAddedRankPeer) return id;
        if (edited && id < edited->edgeInCaller.size()) return edited->edgeInCaller[id];
        return id < edit.edgeOrigin.size() ? edit.edgeOrigin[id] : kNoEdge;
    };
    std::vector<NodeTiming> nodes(g.nodes.size());
    TimeNs lastEnd = 0;
    NodeId last = kNoNode;
    auto onLane = [&](NodeId x) { return x < edit.laneOf.size() && edit.laneOf[x] > 0; };
    for (NodeId i = 0; i < g.nodes.size(); ++i) {
        const NodeId x = edit.nodeOf[i];
        // pp.degree: the stages > 0 of a column are not drawn on the traced rank's tracks.
        if (x == kNoNode || x >= r.nodes.size() || onLane(x)) continue;
        nodes[i] = r.nodes[x];
        nodes[i].startBoundBy = mapEdge(nodes[i].startBoundBy);
        nodes[i].endBoundBy = mapEdge(nodes[i].endBoundBy);
        const TimeNs rel = nodes[i].end - g.ranks[g.nodes[i].rank].origin;
        if (nodes[i].end >= 0 && !r.setup.isDropped(g.nodes[i].rank) && (last == kNoNode || rel > lastEnd)) {
            lastEnd = rel;
            last = i;
        }
    }
    if (r.lastNode >= edit.kept) r.lastAdded = -1; // it ended in a copied block: the loaded ranks' last
    r.lastNode = r.lastNode < edit.kept && !onLane(r.lastNode) ? edit.sourceOf[r.lastNode] : last;
    // The added ranks (dp.degree) ran the edited copy of their source: their times go back onto the
    // caller's nodes the same way; copied blocks have none.
    if (!r.addedRanks.empty()) {
        const AddedRankTimes inner = std::move(r.addedRanks);
        AddedRankTimes& out = r.addedRanks;
        out.setupIndex = inner.setupIndex;
        out.source = inner.source;
        out.rankId = inner.rankId;
        out.summary = inner.summary;
        out.indexNodes(g);
        out.start.assign(out.offset.back(), -1);
        out.end.assign(out.offset.back(), -1);
        out.startBy.assign(out.offset.back(), kNoEdge);
        out.endBy.assign(out.offset.back(), kNoEdge);
        auto back = [&](SimNodeRef ref) { // an edited-graph node back to the caller's, if kept
            ref.node = ref.node < edit.kept ? edit.sourceOf[ref.node] : kNoNode;
            return ref;
        };
        for (std::size_t a = 0; a < out.count(); ++a)
            for (NodeId i : out.rankNodes[out.source[a]]) {
                const NodeId x = edit.nodeOf[i];
                if (x == kNoNode || x >= inner.slotOf.size()) continue;
                const SimNodeRef in{x, static_cast<std::int32_t>(a)};
                const std::size_t from = inner.slot(in), to = out.slot({i, static_cast<std::int32_t>(a)});
                out.start[to] = inner.start[from];
                out.end[to] = inner.end[from];
                out.startBy[to] = mapEdge(inner.startBy[from]);
                out.endBy[to] = mapEdge(inner.endBy[from]);
            }
        for (const auto& [key, peer] : inner.heldBy) {
            const SimNodeRef held = back(AddedRankTimes::unkey(key));
            const SimNodeRef by = back(peer);
            if (held.valid() && by.valid()) out.heldBy.emplace(AddedRankTimes::key(held), by);
        }
    }
    if (options.timeline)
        for (std::size_t c = edit.kept; c < edit.graph.nodes.size() && c < r.nodes.size(); ++c) {
            // pp.degree: the timeline and its breakdowns are stage 0's of each column.
            if (onLane(static_cast<NodeId>(c))) continue;
            const GraphNode& node = edit.graph.nodes[c];
            if ((node.kind != NodeKind::GpuOp && node.kind != NodeKind::Collective) || r.nodes[c].start < 0)
                continue;
            r.timeline.added.push_back({node.rank, node.event, r.nodes[c].start, r.nodes[c].end});
        }
    r.nodes = std::move(nodes);
    // comm.overlap=false's overlay was laid over the edited copy's nodes: its edges, and those the
    // edit made, are the caller's overlay (mapped above).
    r.addedEdges = callerEdges;
    r.edited = std::move(edited);
    return r;
}

} // namespace sl
