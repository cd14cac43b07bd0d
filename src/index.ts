/**
 * Murmur's public API. Every export is named explicitly, values and types separately, one section per area.
 * (Engineers: edit only your area's section.)
 */

// ---- core: errors, validation, deterministic RNG and maths ----
export {
  MurmurError,
  InvalidArgumentError,
  CapacityError,
  UnknownEntityError,
  MalformedInputError,
  DegenerateGeometryError,
  OutOfRangeError,
} from './core/errors';
export type { MurmurErrorCode } from './core/errors';
export { createRng, seedRng, rngUint32, rngFloat, rngRange, rngInt } from './core/rng';
export type { Rng } from './core/rng';
export { dsin, dcos, datan2, dhypot } from './core/dmath';

// ---- world: crowd, agents, pipeline, profiler ----
export { createCrowd, DEFAULT_MAX_AGENTS, MAX_MAX_AGENTS } from './world/crowd';
export type { CrowdWorld, CrowdOptions, CrowdConfig, CrowdData, CrowdTime, PipelineSwitches } from './world/crowd';
export {
  spawnAgent,
  despawnAgent,
  isAgent,
  liveEntityCount,
  requireEntitySlot,
  requireAgent,
  agentCount,
  setAgentPosition,
  setAgentVelocity,
  setPreferredVelocity,
  setAgentParams,
} from './world/agents';
export type { AgentInit } from './world/agents';
export { step, advance, interpolatePosition, preferredToDesired } from './world/step';
export { agentHasOrder } from './world/orders';
export { defineAgentComponent, onDespawn } from './world/registry';
export type { StoreAllocator, RegisteredStore, ComponentRegistry } from './world/registry';
export {
  createProfiler,
  profileEntry,
  profileRecord,
  profileCount,
  profileFrame,
  resetProfiler,
  formatProfile,
  nowMs,
} from './world/profiler';
export type { Profiler, ProfileEntry } from './world/profiler';
export { spatialHashSystem, hashHoldsLiveAgents } from '../systems/spatial-hash';
export { integrateSystem, integrateVelocities, applyVelocities } from '../systems/integrate';
export type { Vec2Store } from '../components/vec2';
export type { PositionStore } from '../components/position';
export type { AgentParamsStore } from '../components/agent-params';
export type { AgentList } from '../components/agent-list';

// ---- spatial ----
export {
  createSpatialHash,
  setSpatialHashCellSize,
  rebuildSpatialHash,
  queryRadius,
  queryKNearest,
  queryKNearestBatch,
  openSpatialHash,
  syncSpatialHash,
  spatialHashBucket,
  SPATIAL_HASH_MAX_COORDINATE,
} from './spatial/hash';
export type { SpatialHash, KNearestBatchIndex } from './spatial/hash';

// ---- grid ----
export {
  createGrid,
  gridFromAscii,
  parseMovingAiMap,
  setBlocked,
  setCost,
  isWalkable,
  cellIndex,
  gridCostRange,
  worldToCell,
  cellToWorld,
  cloneGrid,
  MAX_GRID_SIDE,
} from './grid/grid';
export type { Grid, GridOptions, AsciiGridOptions } from './grid/grid';
export {
  findPath,
  findPathJps,
  resumePath,
  createGridSearch,
  beginGridSearch,
  stepGridSearch,
  gridSearchPathLength,
  readGridSearchPath,
  gridSearchCost,
} from './grid/search';
export type { FindPathOptions, PathResult, PathStatus, GridSearch, GridHeuristic, GridTieBreak } from './grid/search';
export { createGridRegions, refreshGridRegions, gridCellsConnected } from './grid/regions';
export { gridWallRings } from './grid/walls';
export type { GridWallRing } from './grid/walls';
export type { GridRegions } from './grid/regions';
export {
  buildFlowField,
  rebuildFlowField,
  sampleFlowField,
  flowFieldCostAt,
  createFlowFieldCache,
  getFlowField,
  clearFlowFieldCache,
  MAX_FLOW_COST_RATIO,
} from './grid/flowfield';
export type { FlowField, FlowFieldOptions, FlowFieldCache, FlowSampleStatus } from './grid/flowfield';
export {
  createPathQueue,
  requestPath,
  updatePathRequestStart,
  cancelPathRequest,
  pendingPathRequests,
  servePathQueue,
  PATH_NONE,
  PATH_PENDING,
  PATH_FOUND,
  PATH_UNREACHABLE,
} from './grid/path-queue';
export type { PathQueue } from './grid/path-queue';
export {
  navigationSystem,
  setNavigationGrid,
  setAgentGoal,
  setGroupGoal,
  clearAgentGoal,
  navigationStatus,
  agentPathCells,
  agentFlowField,
} from '../systems/navigation';
export type { NavigationOptions, NavigationState, AgentGoalOptions, NavigationStatus } from '../systems/navigation';
export {
  navigationComponent,
  GRID_NAV_MODE_NONE,
  GRID_NAV_MODE_FLOW,
  GRID_NAV_MODE_PATH,
  GRID_NAV_IDLE,
  GRID_NAV_MOVING,
  GRID_NAV_ARRIVED,
  GRID_NAV_UNREACHABLE,
  GRID_NAV_WAITING_FOR_PATH,
} from '../components/navigation';
export type { NavigationStore } from '../components/navigation';

// ---- navmesh ----
export { buildNavmesh } from './navmesh/build';
export { navmeshFromBuffer } from './navmesh/buffer';
export type { Navmesh, NavmeshOptions, PolygonMap } from './navmesh/build';
export type { Ring } from './navmesh/rings';
export { locateTriangle, nearestPointOnMesh, closestPointOnTriangle } from './navmesh/locate';
export { createNavQuery, createNavPathResult, findNavPath, beginNavPath, stepNavPath, finishNavPath } from './navmesh/search';
export type { NavQuery, NavPathResult, NavPathStatus } from './navmesh/search';
export { corridorPortals } from './navmesh/portals';
export { funnel, polylineLength } from './funnel/funnel';
export { gridPathPortals } from './funnel/grid';
export { corridorMoveStart, corridorBlocked, corridorShortcut, raycastMesh } from './navmesh/corridor';
export { funnelSystem, funnelRange, setNavmesh, setNavGoal, moveNavGoal, clearNavGoal, setNavTrianglesBlocked, getAgentCorridor } from '../systems/funnel';
export type { FunnelOptions, FunnelState } from '../systems/funnel';
export { corridorComponent, NAV_NONE, NAV_FOLLOWING, NAV_ARRIVED, NAV_UNREACHABLE, NAV_REPLAN } from '../components/corridor';
export type { CorridorStore } from '../components/corridor';

// ---- steering ----
export {
  vec2Out, seek, flee, arrive, arriveMoving, wander, interceptTime, pursue, evade, followVelocity,
} from './steering/behaviours';
export type { Vec2Out } from './steering/behaviours';
export { accumulateTruncated, clampLength } from './steering/combine';
export { smoothVelocity, limitTurn } from './steering/filters';
export { avoidSegments, DEFAULT_FEELER_PARAMS } from './steering/obstacles';
export type { FeelerParams } from './steering/obstacles';
export { createSegmentGrid, querySegmentGrid } from './steering/segment-grid';
export type { SegmentGrid } from './steering/segment-grid';
export { steeringSystem, steeringRange, setSteering, setSteeringWalls } from '../systems/steering';
export type { SteeringConfig, SteeringWorldState } from '../systems/steering';
export {
  steeringComponent, STEER_AVOID_WALLS, STEER_EVADE, STEER_FLEE, STEER_PURSUE, STEER_SEEK, STEER_ARRIVE, STEER_FOLLOW,
  STEER_WANDER, STEER_ALL,
} from '../components/steering';
export type { SteeringStore } from '../components/steering';
export { boidsAcceleration, bruteForceRadius, bruteForceKNearest, BOIDS_MIN_DIST2 } from './boids/boids';
export { boidsTopologicalSorted } from './boids/fused';
export { boidsSystem, boidsAccelerations, boidsApply, setBoids } from '../systems/boids';
export type { BoidsConfig } from '../systems/boids';
export { boidsComponent, BOIDS_METRIC, BOIDS_TOPOLOGICAL, BOIDS_MAX_NEIGHBOURS } from '../components/boids';
export type { BoidsStore } from '../components/boids';
export {
  formationSlots, formationSpacing, slotsRadius, FORMATION_LINE, FORMATION_COLUMN, FORMATION_WEDGE, FORMATION_BOX,
  FORMATION_CIRCLE, FORMATION_SHAPE_NAMES,
} from './formation/slots';
export type { FormationShape } from './formation/slots';
export { assignSlots, assignSlotsOptimal, assignSlotsGreedy, HUNGARIAN_MAX } from './formation/assign';
export { advanceAnchor, createAnchorState } from './formation/anchor';
export type { AnchorState, AnchorParams } from './formation/anchor';
export {
  formationSystem, createFormation, addFormationMember, removeFormationMember, setFormationPath, setFormationShape,
  destroyFormation, getFormation, formationSlotError,
} from '../systems/formation';
export type { FormationGroup, FormationOptions } from '../systems/formation';
export { formationComponent } from '../components/formation';
export type { FormationStore } from '../components/formation';

// ---- avoidance ----
export {
  orcaVelocity,
  orcaVelocityUnchecked,
  orcaShare,
  orcaLastLines,
  createOrcaAgent,
  createOrcaNeighbours,
  ORCA_FEASIBLE,
  ORCA_FALLBACK,
  ORCA_FALLBACK_SOFT_CONTACT,
  ORCA_PAPER,
  ORCA_NO_OVERLAP,
} from './avoidance/orca';
export type { OrcaAgent, OrcaNeighbours, OrcaOutput } from './avoidance/orca';
export { linearProgram2, linearProgram3, LP_EPSILON, LINE_STRIDE } from './avoidance/lp';
export { createObstacleSet, addObstacleToSet, clearObstacleSet, buildObstacleIndex, queryObstacleSegments, obstacleDistanceLowerBoundAt } from './avoidance/obstacles';
export type { ObstacleSet, ObstacleOptions } from './avoidance/obstacles';
export {
  orcaComponent,
  orcaState,
  enableOrca,
  disableOrca,
  setOrcaParams,
  setOrcaOptions,
  addObstacle,
  clearObstacles,
  getObstacles,
  ORCA_MAX_NEIGHBOURS,
} from '../components/orca';
export type { OrcaStore, OrcaWorldState, OrcaParams, OrcaNeighbourSearch } from '../components/orca';
export { orcaSystem, orcaPack, orcaCompute, orcaApply } from '../systems/orca';
export { createCircleSwapScene, createCorridorScene, createBlocksScene, driveOrcaScene } from './avoidance/scenes';
export type { OrcaScene, OrcaSceneOptions } from './avoidance/scenes';

// ---- lod ----
export { enableLod, disableLod, setFocusPoints, setLodBudget, getLodStats, lodSystem, MAX_FOCUS_POINTS } from '../systems/lod';
export type { LodOptions, LodBudgetOptions, LodState, TierRule } from '../systems/lod';
export { lodComponent, TIER_NEAR, TIER_MID, TIER_FAR, LOD_STEER, LOD_BOIDS, LOD_ORCA, LOD_CONTACTS, LOD_ALL } from '../components/lod';
export type { LodStore } from '../components/lod';
export { assignTiers } from './lod/tiers';
export { createBudget, budgetUpdate } from './lod/budget';
export type { BudgetState } from './lod/budget';

// ---- collision ----
export {
  sphereShape, capsuleShape, cylinderShape, boxShape, hullShape, createPose, setPoseQuat, setPoseAngle, coreSupport, shapeSupport,
  MAX_HULL_VERTICES, MAX_HULL_INPUT, CYLINDER_CAP_SEGMENTS,
} from './collision/shapes';
export type { Shape, ShapeKind, Pose } from './collision/shapes';
export { gjkDistance, gjkOverlap, createGjkCache, createDistanceOutput, GJK_MAX_ITERATIONS } from './collision/gjk';
export type { GjkCache, DistanceOutput } from './collision/gjk';
export { EPA_MAX_ITERATIONS } from './collision/epa';
export { contactManifold, createManifold, createManifoldInput, lastContactRegion, manifoldPointOnA, MAX_MANIFOLD_POINTS } from './collision/manifold';
export type { Manifold, ManifoldInput } from './collision/manifold';
export { circleShape, polygonShape, boxShape2, createPose2, setPose2, MAX_POLYGON_VERTICES, MIN_POLYGON_EXTENT } from './collision/shapes2d';
export type { Shape2, Pose2 } from './collision/shapes2d';
export {
  contactManifold2, createManifold2, createManifold2Input, createGjkCache2, lastContactRegion2, GJK2_MAX_ITERATIONS, EPA2_MAX_ITERATIONS,
} from './collision/manifold2d';
export type { Manifold2, Manifold2Input, GjkCache2 } from './collision/manifold2d';
export { contactsSystem, configureContacts, getContacts, addStaticShape, clearStaticShapes, staticShapeCount } from '../systems/contacts';
export type { ContactBuffer, ContactsOptions } from '../systems/contacts';
export { agentShapeComponent, setAgentShape, setAgentShapeAngle } from '../components/shape';
export type { AgentShapeStore } from '../components/shape';

// ---- reliability ----
export { snapshot, restore, validateSnapshot, registerSnapshotSection, registerSnapshotComponent, SNAPSHOT_VERSION } from './reliability/snapshot';
export type { SnapshotSection } from './reliability/snapshot';
export { stateHash, hashBytes } from './reliability/hash';
export { ByteWriter, ByteReader } from './reliability/bytes';
export { diagnoseWorld } from './reliability/diagnose';
export type { WorldDiagnosis, DiagnoseOptions } from './reliability/diagnose';
export { systemStateBytes, mappedSection, encodeSectionValue, decodeSectionValue } from './reliability/snapshot';
