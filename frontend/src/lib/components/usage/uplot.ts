// uPlot is loaded when the first chart is shown, in a chunk of its own
// (about 50 kB minified, 23 kB gzip, with its stylesheet), so the app's
// start does not pay for it.

import type uPlotType from 'uplot';

export type UPlot = typeof uPlotType;

let loading: Promise<UPlot> | null = null;

/** loadUPlot imports uPlot and its stylesheet once. */
export function loadUPlot(): Promise<UPlot> {
  loading ??= Promise.all([import('uplot'), import('uplot/dist/uPlot.min.css')]).then(
    ([m]) => m.default,
    (e) => {
      loading = null;
      throw e;
    },
  );
  return loading;
}
