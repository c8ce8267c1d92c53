0,/^  source: \[codata2018\]$/s//  source: [codata2019]/
