import { ECOLOGITS_DATA } from './ecologits-data.ts'

// Electricity mixes of all 50 zones of EcoLogits 0.9.1's ecologits/data/electricity_mixes.csv
// (dataset/ecologits-0.9.1/, ADEME Base Empreinte figures), read from the file at start-up. Only
// the labels are ours: the English short names of the ISO 3166 alpha-3 codes; WOR is EcoLogits'
// world mix.

export interface ElectricityMix {
  label: string
  /** Global warming potential, kgCO2eq per kWh (column gwp). */
  kgCo2eqPerKwh: number
  /** Primary energy, MJ per kWh (column pe). */
  peMjPerKwh: number
  /** Water consumed to produce the electricity, L per kWh (column wue). */
  wueLPerKwh: number
}

const LABELS: Readonly<Record<string, string>> = {
  ARG: 'Argentina',
  AUS: 'Australia',
  AUT: 'Austria',
  BEL: 'Belgium',
  BGR: 'Bulgaria',
  BRA: 'Brazil',
  CAN: 'Canada',
  CHE: 'Switzerland',
  CHL: 'Chile',
  CHN: 'China',
  CYP: 'Cyprus',
  CZE: 'Czechia',
  DEU: 'Germany',
  DNK: 'Denmark',
  ESP: 'Spain',
  EST: 'Estonia',
  FIN: 'Finland',
  FRA: 'France',
  GBR: 'United Kingdom',
  GRC: 'Greece',
  HUN: 'Hungary',
  IDN: 'Indonesia',
  IND: 'India',
  IRL: 'Ireland',
  ISL: 'Iceland',
  ITA: 'Italy',
  JPN: 'Japan',
  KOR: 'South Korea',
  LTU: 'Lithuania',
  LUX: 'Luxembourg',
  LVA: 'Latvia',
  MEX: 'Mexico',
  MLT: 'Malta',
  MYS: 'Malaysia',
  NLD: 'Netherlands',
  NOR: 'Norway',
  NZL: 'New Zealand',
  POL: 'Poland',
  PRT: 'Portugal',
  ROU: 'Romania',
  RUS: 'Russia',
  SVK: 'Slovakia',
  SVN: 'Slovenia',
  SWE: 'Sweden',
  THA: 'Thailand',
  TUR: 'Türkiye',
  TWN: 'Taiwan',
  UKR: 'Ukraine',
  USA: 'United States',
  WOR: 'World',
}

export const ELECTRICITY_MIXES: Readonly<Record<string, ElectricityMix>> = Object.fromEntries(
  ECOLOGITS_DATA.mixes.map((row) => [
    row.name,
    { label: LABELS[row.name] ?? row.name, kgCo2eqPerKwh: row.gwp, peMjPerKwh: row.pe, wueLPerKwh: row.wue },
  ]),
)
