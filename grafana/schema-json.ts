// The @grafana/schema types as dashboard JSON spells them, for check-dashboards.mjs.
import type * as g from '@grafana/schema';
import type * as timeseries from '@grafana/schema/dist/esm/raw/composable/timeseries/panelcfg/x/TimeSeriesPanelCfg_types.gen';
import type * as stat from '@grafana/schema/dist/esm/raw/composable/stat/panelcfg/x/StatPanelCfg_types.gen';
import type * as text from '@grafana/schema/dist/esm/raw/composable/text/panelcfg/x/TextPanelCfg_types.gen';

/** T with each string enum replaced by its values: JSON holds "absolute", not ThresholdsMode.Absolute. */
export type Json<T> =
  T extends string ? `${T}` :
  T extends number | boolean | null | undefined ? T :
  T extends Array<infer E> ? Array<Json<E>> :
  T extends object ? { [K in keyof T]: Json<T[K]> } :
  T;

export type Dashboard = Json<g.Dashboard>;

/**
 * A panel whose `options` and `fieldConfig.defaults.custom` are checked against its plugin's schema; the
 * schema's own Panel type leaves both open (`Record<string, unknown>`).
 */
export type TypedPanel<O, C> = Json<Omit<g.Panel, 'options' | 'fieldConfig'>> & {
  options: Json<O>;
  fieldConfig: {
    defaults: Json<Omit<g.FieldConfig, 'custom'>> & { custom?: Json<C> };
    overrides: Json<g.FieldConfigSource['overrides']>;
  };
};

export type TimeSeriesPanelCfgOptions = timeseries.Options;
export type TimeSeriesPanelCfgFieldConfig = timeseries.FieldConfig;
export type StatPanelCfgOptions = stat.Options;
export type StatPanelCfgFieldConfig = Record<string, never>;
export type TextPanelCfgOptions = text.Options;
export type TextPanelCfgFieldConfig = Record<string, never>;
