/*
 * How formulas write the quantities the C providers add (the data's,
 * the series', the machines'): as physicists do, with "_" before a
 * subscript, and for a family of names one symbol whose subscript's
 * last item is the row (registry_set_symbols()). The model document's
 * own quantities have theirs in data/model.md ("symbol:"). Reads and
 * writes nothing but the registry's symbols.
 */
#include <stddef.h>

#include "model.h"
#include "registry.h"
#include "banned.h"

/* Names of their own. */
static const char *const symbols[][2] = {
	{ "article.areal_doublings", "n_areal" },
	{ "article.density_from", "y_from" },
	{ "article.density_to", "y_to" },
	{ "article.laptop_flops", "F_art" },
	{ "article.laptop_storage", "D_art" },
	{ "article.record.rmax", "F_HPL,art" },
	{ "article.record.power", "P_art" },
	{ "blackhole.mass_loss_constant", "\xce\xb1" },
	{ "blackhole.dof_spin0", "g_0" },
	{ "blackhole.dof_spin_half_charged", "g_\xc2\xbd,\xc2\xb1" },
	{ "blackhole.dof_spin_half_neutral", "g_\xc2\xbd,0" },
	{ "blackhole.dof_spin1", "g_1" },
	{ "blackhole.dof_spin2", "g_2" },
	{ "blackhole.dof_photon", "g_\xce\xb3" },
	{ "blackhole.f_spin0", "f_0" },
	{ "blackhole.f_spin_half_charged", "f_\xc2\xbd,\xc2\xb1" },
	{ "blackhole.f_spin_half_neutral", "f_\xc2\xbd,0" },
	{ "blackhole.f_spin1", "f_1" },
	{ "blackhole.f_spin2", "f_2" },
	{ "current.disk.is_ssd", "s_SSD" },
	{ "moore.article_doubling", "T_art" },
	{ "current.disk.storage", "D_drv" },
	{ "current.disk.year", "y_drv" },
	{ "record.year", "y_rec" },
	{ "record.rmax", "F_HPL,rec" },
	{ "record.power", "P_rec" },
	{ "previous.record.rmax", "F_HPL,prev" },
	{ "previous.record.power", "P_prev" },
	{ "record.mass", "m_rec" },
	{ "drive.mass", "m_drv" },
	{ "drive.volume", "V_drv" },
	{ "mass.fit.n", "n_m" },
	{ "mass.fit.to", "t_m" },
	{ "mass.fit.slope", "k_m" },
	{ "mass.fit.slope_se", "\xcf\x83_k,m" },
	{ "mass.fit.value_to", "x_m" },
	{ "article.year", "y_art" },
	{ "current.ssd.storage", "D_SSD" },
	{ "current.hdd.storage", "D_HDD" },
	{ "moore.fast_doubling", "T_fast" },
	{ "particle.top_mass", "m_t" },
	{ "proton.radius", "r_p" },
	{ "sun.core_temperature", "T_\xe2\x98\x89" },
	{ "sun.luminosity", "L_\xe2\x98\x89" },
};

/*
 * The symbols of families (registry_set_symbols()): a pattern's "*" is
 * the row, and the last item of the symbol's subscript is the family's
 * index (s a series, e an energy fit, c a claim, r a rate), where a
 * member's formula writes its row: series.top500.fit_all.to is t_all,s
 * with top500 below. The machines', the comparisons' and the quantum
 * chips' symbols are the model document's (its families' symbol:
 * lines), and so are the gaps' and the record holder's: none is given
 * here too.
 */
static const char *const symbol_patterns[][2] = {
	{ "series.*.fit_all.to", "t_all,s" },
	{ "series.*.fit_all.value_to", "x_all,s" },
	{ "series.*.fit_all.year_ml", "Y_ML,all,s" },
	{ "series.*.fit_all.year_atomic", "Y_atom,all,s" },
	{ "series.*.fit_article.to", "t_art,s" },
	{ "series.*.fit_article.value_to", "x_art,s" },
	{ "series.*.fit_article.value_latest", "x_art,last,s" },
	{ "series.*.fit_article.year_ml", "Y_ML,art,s" },
	{ "series.*.fit_article.year_atomic", "Y_atom,art,s" },
	{ "series.*.fit_since.to", "t_new,s" },
	{ "series.*.fit_since.value_to", "x_new,s" },
	{ "series.*.fit_since.year_ml", "Y_ML,new,s" },
	{ "series.*.fit_since.year_atomic", "Y_atom,new,s" },
	{ "series.*.fit_window.slope", "k_win,s" },
	{ "series.*.fit_all.slope_se", "\xcf\x83_k,all,s" },
	{ "series.*.fit_article.slope_se", "\xcf\x83_k,art,s" },
	{ "series.*.fit_since.slope_se", "\xcf\x83_k,new,s" },
	{ "series.*.fit_window.slope_se", "\xcf\x83_k,win,s" },
	{ "series.*.fit_window.doubling_time_se", "\xcf\x83_T,win,s" },
	{ "series.*.first.value", "x_first,s" },
	{ "series.*.latest.value", "x_last,s" },
	{ "series.*.latest.time", "t_last,s" },
	{ "series.*.doublings_window", "n_win,s" },
	{ "series.*.factor_window", "f_win,s" },
	{ "series.*.doublings_window_fit", "n_fit,win,s" },
	{ "series.*.years_per_doubling_window", "T_win,s" },
	{ "series.*.pace.slowdown", "r_slow,s" },
	{ "series.*.pace.shortfall", "r_short,s" },
	{ "energy.*.slope", "k_e" },
	{ "energy.*.slope_se", "\xcf\x83_k,e" },
	{ "energy.*.doubling_time", "T_e" },
	{ "energy.*.to", "t_e" },
	{ "energy.*.value_to", "x_e" },
	{ "energy.*.halving_time", "T_\xc2\xbd,e" },
	{ "energy.*.year_landauer", "Y_L,e" },
	{ "claim.*.recomputed", "x_c" },
	{ "claim.*.published", "x_p,c" },
	{ "claim.*.ratio", "\xcf\x81_c" },
	{ "rate.*", "T_r" },
};

void
model_set_symbols(struct registry *reg)
{
	size_t i;

	for (i = 0; i < sizeof(symbols) / sizeof(symbols[0]); i++)
		if (registry_get(reg, symbols[i][0]) &&
		    !registry_get(reg, symbols[i][0])->symbol)
			registry_set_symbol(reg, symbols[i][0], symbols[i][1]);
	registry_set_symbols(reg, symbol_patterns,
			     sizeof(symbol_patterns) / sizeof(*symbol_patterns),
			     NULL, 0);
}
