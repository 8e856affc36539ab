// `node --import ./tests/helpers/record-imports.mjs ...`: appends every module the process (or any
// of its threads) resolves to the file in RECORD_IMPORTS, one URL a line. Start-up tests count with
// it which packages a server loads before its first request (decision 022).
import { register } from 'node:module'

register('./record-imports-hooks.mjs', import.meta.url)
