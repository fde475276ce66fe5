/**
 * The conformance kit as a library (`import { runScenarios } from 'adops-sandbox/conformance'`):
 * run scenarios from any test runner, add step kinds, render reports.
 */
export { runScenarios, summarize } from './runner.js'
export type { Reporter, RunEvent, RunOptions, RunResult } from './runner.js'
export { registerStepKind, stepKindNames } from './steps/registry.js'
export type { StepKind } from './steps/registry.js'
export { loadScenarios, ScenarioLoadError } from './loader.js'
export { makeTarget, TargetUnreachableError } from './targets.js'
export type { TargetFactory, TargetSpec } from './targets.js'
export { Contract, OPENAPI_PATH } from './contract.js'
export { mergeReports } from './merge.js'
export { EXIT, exitCodeOf } from './exit-codes.js'
export type { RunExitCode } from './exit-codes.js'
export { computeCoverage } from './coverage.js'
export type { CoverageReport, RuleCoverage, RuleState } from './coverage.js'
export { fileReporter, htmlReporter, jsonReporter, junitReporter, ndjsonReporter } from './reporters/files.js'
export { ttyReporter } from './reporters/tty.js'
export type { Capability, Exchange, ScenarioResult, StepContext, StepResult, StepSubject, Target, Violation } from './types.js'
export { runWithSdk } from './sdk/run-with-sdk.js'
export { AdapterError, SdkAdapter } from './sdk/adapter-process.js'
export { withSdk } from './sdk/sdk-target.js'
export type { AdapterAnswer, AdapterRequest, ConfigureParams } from './sdk/protocol.js'
