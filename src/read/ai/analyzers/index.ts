import type { Analyzer } from "../recommendation.js";
import { authSpikes } from "./auth-spikes.js";
import { contentFilter } from "./content-filter.js";
import { emptyOutputs } from "./empty-outputs.js";
import { errorHotSpots } from "./error-hot-spots.js";
import { expensiveModels } from "./expensive-models.js";
import { expensiveOperations } from "./expensive-operations.js";
import { llmErrors } from "./llm-errors.js";
import { nPlusOne } from "./n-plus-one.js";
import { promptCache } from "./prompt-cache.js";
import { secretsInLogs } from "./secrets-in-logs.js";
import { slowEndpoints } from "./slow-endpoints.js";
import { suspiciousPaths } from "./suspicious-paths.js";
import { truncatedResponses } from "./truncated-responses.js";

/** Every analyzer of the AI dashboard; adding one is one entry. */
export const ANALYZERS: readonly Analyzer[] = [
  slowEndpoints,
  nPlusOne,
  errorHotSpots,
  expensiveModels,
  expensiveOperations,
  promptCache,
  authSpikes,
  suspiciousPaths,
  secretsInLogs,
  llmErrors,
  truncatedResponses,
  contentFilter,
  emptyOutputs,
];
