// Underlined: links inside running text must not rely on colour alone (WCAG 1.4.1).
const ext = 'text-primary underline underline-offset-4 hover:decoration-2'

/** The method behind every number, the standard reference, and what others have measured. */
export function MethodSources() {
  return (
    <div className="grid gap-6 text-sm leading-relaxed text-zinc-300">
      <p>
        Loris estimates each reply with{' '}
        <a href="https://ecologits.ai" className={ext} target="_blank" rel="noreferrer">
          EcoLogits 0.9.1 by GenAI Impact
        </a>
        , the most complete open method for the footprint of one request to a large language model. It counts
        the energy of the GPUs and the server for the tokens the model generates, the data centre's overhead
        (PUE), the electricity mix where it runs, and a share of the hardware's manufacturing. Where a
        provider does not publish a model's size, EcoLogits uses a range, so every number has a low and a high
        estimate; we show the middle and keep both.
      </p>
      <p data-testid="data-version">
        <strong className="text-foreground">Data version: EcoLogits 0.9.1.</strong> The model sizes, each
        provider's data-centre efficiency (PUE) and water use (WUE), and the electricity mixes of 50 zones
        come unchanged from the data files of the EcoLogits 0.9.1 release (Mozilla Public License 2.0). Beside
        CO2, every estimate gives the request's energy, its primary energy (energy x the zone's primary energy
        factor) and its usage water footprint: energy x (the provider's on-site WUE + PUE x the water behind
        the zone's electricity). Where EcoLogits has no published architecture for a model, its parameters are
        estimated, and the calculator says so.
      </p>
      <div className="rounded-lg border bg-card p-4">
        <h3 className="font-semibold text-foreground">The standard reference</h3>
        <p className="mt-1">
          “Saved” compares each reply with the same answer from <strong>GPT-4o, served by OpenAI</strong> (PUE
          1.20) on the <strong>world average electricity mix</strong>, with no latency cap. It is one
          reference for everyone, and a saving is never negative.
        </p>
      </div>
      <div>
        <h3 className="font-semibold text-foreground">What others have measured</h3>
        <ul className="mt-2 list-disc space-y-2 pl-5">
          <li>
            Google's measured median Gemini Apps text prompt: 0.24 Wh and 0.03 gCO2e, market-based (August
            2025,{' '}
            <a href="https://arxiv.org/abs/2508.15734" className={ext} target="_blank" rel="noreferrer">
              arXiv 2508.15734
            </a>
            ).
          </li>
          <li>
            OpenAI's stated average ChatGPT query: about 0.34 Wh (Sam Altman,{' '}
            <a
              href="https://blog.samaltman.com/the-gentle-singularity"
              className={ext}
              target="_blank"
              rel="noreferrer"
            >
              The Gentle Singularity
            </a>
            , June 2025).
          </li>
          <li>
            Mistral's life-cycle analysis of Mistral Large 2: 1.14 gCO2e for a 400-token Le Chat answer (
            <a
              href="https://mistral.ai/news/our-contribution-to-a-global-environmental-standard-for-ai"
              className={ext}
              target="_blank"
              rel="noreferrer"
            >
              Mistral AI
            </a>
            , July 2025).
          </li>
        </ul>
        <p className="mt-3 text-muted-foreground">
          These measure different things (a median prompt, an average query, a whole life cycle), so they
          bracket our estimates rather than match them.
        </p>
      </div>
    </div>
  )
}
