// A filter form over a polled list (audit, journal): fetches on every poll and on each filter change,
// and drops answers that arrive after the filters changed, so old and new rows never mix.
import { get } from './api.js'

/**
 * `path(filters)` names the call, `show(res)` renders its answer, `reset()` clears the list when the
 * filters change; `accept(filters)` may refuse a half-typed value (no refetch until it is valid).
 * Returns the unsubscribe function of the poll.
 */
export function liveFilter(form, app, { path, show, reset, accept = () => true }) {
  let filters = {}
  let generation = 0
  let refused = false

  async function load() {
    const mine = generation
    try {
      const res = await get(path(filters))
      if (mine !== generation) return
      show(res)
      // A refused filter's alert goes away once the filters are valid again.
      if (refused) (app.clearAlert(), (refused = false))
    } catch (error) {
      if (mine !== generation) return
      refused = true
      app.fail(error)
    }
  }

  form.addEventListener('input', () => {
    filters = Object.fromEntries(new FormData(form))
    if (!accept(filters)) return
    generation++
    reset()
    void load()
  })
  form.addEventListener('submit', (event) => event.preventDefault())
  return app.onTick(() => void load())
}
