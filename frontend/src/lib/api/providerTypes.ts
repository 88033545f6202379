// Types of backend/providers (the bound ProviderManager, SPEC C1–C3),
// generated from Go (backend/contract).
import type { Health, Provider } from './generated/contract';

export type {
  ConnectionResult,
  EnvReload,
  EnvVar,
  Health,
  Model,
  ModelList,
  ModelRef,
  OllamaStatus,
  PickerProvider,
  Preset,
  Provider,
  ProviderInput,
} from './generated/contract';

/** The two kinds of provider. */
export type ProviderType = Provider['type'];
/** Where a provider's key comes from. */
export type KeySource = Provider['keySource'];
/** A provider's verdict, as a code the UI words (providers.Health). */
export type HealthCode = Health['code'];
