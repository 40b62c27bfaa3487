import { atLeast, CI, definer } from "./define.js";
import type { FunctionDef } from "./function-def.js";

const fn = definer("aggregate", true);

/** The quantile families: quantileX(level)(x), quantilesX(level, ...)(x) and medianX(x). */
const QUANTILE_FAMILIES: readonly (readonly [suffix: string, args: number, method: string])[] = [
  ["", 1, "approximate, from a sample of 8192 values"],
  ["Exact", 1, "exact (keeps every value)"],
  ["ExactLow", 1, "exact, lower of two middle values"],
  ["ExactHigh", 1, "exact, higher of two middle values"],
  ["ExactExclusive", 1, "exact, R6 interpolation"],
  ["ExactInclusive", 1, "exact, R7 interpolation"],
  ["ExactWeighted", 2, "exact, values weighted by the 2nd argument"],
  ["ExactWeightedInterpolated", 2, "exact, weighted (2nd argument), interpolated"],
  ["InterpolatedWeighted", 2, "weighted (2nd argument), interpolated"],
  ["TDigest", 1, "approximate, t-digest"],
  ["TDigestWeighted", 2, "t-digest, weighted by the 2nd argument"],
  ["Timing", 1, "for durations in ms, capped at 30 s"],
  ["TimingWeighted", 2, "for durations in ms, weighted"],
  ["Deterministic", 2, "sampled, the sample fixed by the 2nd argument"],
  ["BFloat16", 1, "approximate, values rounded to bfloat16"],
  ["BFloat16Weighted", 2, "bfloat16, weighted by the 2nd argument"],
];
/** ClickHouse has no median alias for these. */
const NO_MEDIAN = new Set(["ExactExclusive", "ExactInclusive"]);

const quantileFamilies = (): FunctionDef[] =>
  QUANTILE_FAMILIES.flatMap(([suffix, args, method]) => [
    fn(`quantile${suffix}`, args, `Quantile at level (default 0.5), ${method}`, { params: [0, 1] }),
    fn(`quantiles${suffix}`, args, `Array of quantiles, one per level, ${method}`, {
      params: atLeast(1),
    }),
    ...(NO_MEDIAN.has(suffix) ? [] : [fn(`median${suffix}`, args, `Median, ${method}`)]),
  ]);

/** The sketches take their accuracy as the first parameter. */
const quantileSketches = (): FunctionDef[] => [
  fn("quantileDD", 1, "Quantile with DDSketch: (relative_accuracy[, level])(x)", {
    params: [1, 2],
  }),
  fn("quantilesDD", 1, "Quantiles with DDSketch: (relative_accuracy, level, ...)(x)", {
    params: atLeast(2),
  }),
  fn("medianDD", 1, "Median with DDSketch: (relative_accuracy)(x)", { params: 1 }),
  fn("quantileGK", 1, "Quantile with Greenwald-Khanna: (accuracy[, level])(x)", { params: [1, 2] }),
  fn("quantilesGK", 1, "Quantiles with Greenwald-Khanna: (accuracy, level, ...)(x)", {
    params: atLeast(2),
  }),
  fn("medianGK", 1, "Median with Greenwald-Khanna: (accuracy)(x)", { params: 1 }),
];

export const AGGREGATE_FUNCTIONS: readonly FunctionDef[] = [
  fn("count", [0, 1], "Number of rows, or of non-NULL values of the argument", CI),
  fn("sum", 1, "Sum", CI),
  fn("avg", 1, "Arithmetic mean", CI),
  fn("min", 1, "Smallest value", CI),
  fn("max", 1, "Largest value", CI),
  fn("any", 1, "Some value of the group (the first one met)"),
  fn("anyLast", 1, "Some value of the group (the last one met)"),
  fn("anyHeavy", 1, "A value occurring in more than half of the rows, if any (heavy hitter)"),
  fn("argMin", 2, "Value of the first argument where the second is smallest"),
  fn("argMax", 2, "Value of the first argument where the second is largest"),
  fn("avgWeighted", 2, "Mean of the first argument weighted by the second"),
  fn("uniq", atLeast(1), "Approximate number of distinct values (or tuples of values)"),
  fn("uniqExact", atLeast(1), "Exact number of distinct values"),
  fn("uniqCombined", atLeast(1), "Approximate distinct count, (HLL_precision) optional", {
    params: [0, 1],
  }),
  fn("uniqCombined64", atLeast(1), "uniqCombined with 64-bit hashes, for very large counts", {
    params: [0, 1],
  }),
  fn("uniqHLL12", atLeast(1), "Approximate distinct count with HyperLogLog (2^12 cells)"),
  fn("uniqUpTo", atLeast(1), "Distinct count up to N, else N + 1: (N)(x)", { params: [0, 1] }),
  fn("groupArray", 1, "Array of the values, (max_size) optional", { params: [0, 1] }),
  fn("groupArrayLast", 1, "Array of the last max_size values: (max_size)(x)", { params: 1 }),
  fn("groupUniqArray", 1, "Array of the distinct values, (max_size) optional", { params: [0, 1] }),
  fn(
    "groupArrayInsertAt",
    2,
    "Array with each value put at the position given by the 2nd argument",
    {
      params: [0, 2],
    },
  ),
  fn("groupArraySample", 1, "Random sample of the values: (max_size[, seed])(x)", {
    params: [1, 2],
  }),
  fn("groupArraySorted", 1, "The N smallest values in ascending order: (N)(x)", { params: 1 }),
  fn("groupArrayMovingAvg", 1, "Moving average over the values, (window_size) optional", {
    params: [0, 1],
  }),
  fn("groupArrayMovingSum", 1, "Moving sum over the values, (window_size) optional", {
    params: [0, 1],
  }),
  fn("groupArrayIntersect", 1, "Elements present in every array of the group"),
  fn("groupConcat", [1, 2], "Strings joined with a separator: ([separator[, limit]])(x)", {
    params: [0, 2],
  }),
  fn("groupBitAnd", 1, "Bitwise AND of the values"),
  fn("groupBitOr", 1, "Bitwise OR of the values"),
  fn("groupBitXor", 1, "Bitwise XOR of the values"),
  fn("topK", 1, "Approximately most frequent values: ([N[, load_factor[, 'counts']]])(x)", {
    params: [0, 3],
  }),
  fn("topKWeighted", 2, "topK with each value weighted by the 2nd argument", { params: [0, 3] }),
  ...quantileFamilies(),
  ...quantileSketches(),
  fn("stddevPop", 1, "Population standard deviation"),
  fn("stddevSamp", 1, "Sample standard deviation"),
  fn("varPop", 1, "Population variance"),
  fn("varSamp", 1, "Sample variance"),
  fn("stddevPopStable", 1, "stddevPop, numerically stable but slower"),
  fn("stddevSampStable", 1, "stddevSamp, numerically stable but slower"),
  fn("varPopStable", 1, "varPop, numerically stable but slower"),
  fn("varSampStable", 1, "varSamp, numerically stable but slower"),
  fn("covarPop", 2, "Population covariance"),
  fn("covarSamp", 2, "Sample covariance"),
  fn("corr", 2, "Pearson correlation coefficient", CI),
  fn("covarPopStable", 2, "covarPop, numerically stable but slower"),
  fn("covarSampStable", 2, "covarSamp, numerically stable but slower"),
  fn("corrStable", 2, "corr, numerically stable but slower"),
  fn("skewPop", 1, "Population skewness"),
  fn("skewSamp", 1, "Sample skewness"),
  fn("kurtPop", 1, "Population kurtosis"),
  fn("kurtSamp", 1, "Sample kurtosis"),
  fn("entropy", atLeast(1), "Shannon entropy of the values"),
  fn("sumMap", atLeast(1), "Sums values per key: (keys, values) arrays, a tuple of them or a Map"),
  fn(
    "minMap",
    atLeast(1),
    "Minimum value per key: (keys, values) arrays, a tuple of them or a Map",
  ),
  fn(
    "maxMap",
    atLeast(1),
    "Maximum value per key: (keys, values) arrays, a tuple of them or a Map",
  ),
  fn("sumMappedArrays", atLeast(1), "sumMap over (keys, values) arrays"),
  fn("minMappedArrays", atLeast(1), "minMap over (keys, values) arrays"),
  fn("maxMappedArrays", atLeast(1), "maxMap over (keys, values) arrays"),
  fn("histogram", 1, "Adaptive histogram as (lower, upper, height) bins: (number_of_bins)(x)", {
    params: 1,
  }),
  fn("simpleLinearRegression", 2, "Least-squares line (k, b) fitting y = k*x + b: (x, y)"),
  fn("sumKahan", 1, "Sum with Kahan compensation for floating-point error"),
  fn("sumWithOverflow", 1, "Sum in the argument's type, wrapping on overflow"),
  fn("sumCount", 1, "Tuple of (sum, count)"),
  fn("deltaSum", 1, "Sum of the positive differences between consecutive values"),
  fn("deltaSumTimestamp", 2, "deltaSum with values ordered by the timestamp argument"),
  fn("boundingRatio", 2, "Slope between the leftmost and rightmost points: (x, y)"),
  fn("exponentialMovingAverage", 2, "Exponential moving average: (half_decay)(value, time)", {
    params: 1,
  }),
  fn("intervalLengthSum", 2, "Total length of the union of [start, end] intervals"),
  fn("maxIntersections", 2, "Largest number of [start, end] intervals overlapping"),
  fn("maxIntersectionsPosition", 2, "Start of the point where most intervals overlap"),
  fn("retention", atLeast(2), "Retention flags: whether each condition held with the first"),
  fn(
    "windowFunnel",
    atLeast(2),
    "Steps of a funnel reached in a window: (window[, mode])(t, c1, ...)",
    {
      params: atLeast(1),
    },
  ),
  fn("sequenceMatch", atLeast(3), "Whether events match a pattern: (pattern)(time, c1, c2, ...)", {
    params: 1,
  }),
  fn("sequenceCount", atLeast(3), "Number of pattern matches: (pattern)(time, c1, c2, ...)", {
    params: 1,
  }),
  fn("sparkbar", 2, "Unicode bar chart of y over x: (width[, min_x, max_x])(x, y)", {
    params: [1, 3],
  }),
  fn(
    "largestTriangleThreeBuckets",
    2,
    "Downsamples (x, y) points to n keeping the shape: (n)(x, y)",
    {
      params: 1,
    },
  ),
  fn("singleValueOrNull", 1, "The value if all rows have the same one, else NULL"),
  fn("rankCorr", 2, "Spearman rank correlation coefficient"),
  fn("studentTTest", 2, "Student's t-test: (sample_data, sample_index), (confidence) optional", {
    params: [0, 1],
  }),
  fn("welchTTest", 2, "Welch's t-test: (sample_data, sample_index), (confidence) optional", {
    params: [0, 1],
  }),
  fn("mannWhitneyUTest", 2, "Mann-Whitney U test: (sample_data, sample_index)", {
    params: [0, 2],
  }),
];
