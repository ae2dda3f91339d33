//! The portfolio for the cores a run is given (`--jobs`).
//!
//! A set's own members ([`PortfolioSet::configs`]) run on any number of cores, sharing them
//! in time slices when they outnumber them. Each core beyond them runs one more
//! configuration of the set's [`PortfolioSet::extra`] list, in its order: so the default on
//! a 16-core node runs 16 different configurations instead of its eight with eight cores idle.
//! The order is the one in which the configurations, each run alone, add most solved tasks
//! to the virtual best of those before them (measured, with the corpus runner's `--configs`
//! and greedy report, in the lab notes), so the first cores get the configurations that
//! pay most.

use super::configs::{config, PortfolioSet, Row};

/// The cores a run uses: `jobs` when given, but at most the machine's. Members for cores
/// that are not there would only take turns with the others and thin the slices of the
/// ones that answer most (each member's turn is at least a quarter second, see
/// [`crate::engine::portfolio`]), so asking for more cores than there are runs the set for
/// the cores there are.
pub fn cores(jobs: Option<usize>) -> usize {
    let machine = std::thread::available_parallelism().map_or(2, |n| n.get());
    jobs.map_or(machine, |j| j.min(machine))
}

/// The configurations `set` runs on `cores` cores, with their time-slice shares: its own
/// members, then members of its `extra` list until there is one per core (share 1: they
/// come only once every member has a core of its own, so they take no turns). `on` gets
/// each configuration's name and options and says what it runs on the system at hand:
/// `None` if it has nothing to check there (word-level BMC on a bit-level model), else its
/// options as they act there. A configuration with nothing to check, or a twin of one
/// chosen before it (the same options there: it would repeat that member's every step),
/// is left out, and its core goes to the next one of the list.
pub fn members(
    set: &PortfolioSet,
    cores: usize,
    on: impl Fn(&str, &Row) -> Option<Row>,
) -> Vec<(&'static str, u32)> {
    let row = |name: &str| {
        config(name)
            .expect("portfolios name known configurations")
            .row()
    };
    let mut chosen: Vec<(&'static str, u32)> = Vec::new();
    let mut acting: Vec<Row> = Vec::new();
    let own = (set.configs.iter().zip(set.shares)).map(|(&name, &share)| (name, share));
    let extra = set.extra.iter().map(|&name| (name, 1));
    for (i, (name, share)) in own.chain(extra).enumerate() {
        if i >= set.configs.len() && chosen.len() >= cores {
            break;
        }
        if let Some(acts) = on(name, &row(name)).filter(|acts| !acting.contains(acts)) {
            chosen.push((name, share));
            acting.push(acts);
        }
    }
    chosen
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::EngineKind;
    use crate::options::configs::{portfolio, PORTFOLIOS};
    use crate::ts::TransitionSystem;

    fn names(set: &str, cores: usize, runs: impl Fn(&str, &Row) -> bool) -> Vec<&'static str> {
        let set = portfolio(set).unwrap();
        members(set, cores, |name, row| runs(name, row).then(|| row.clone()))
            .into_iter()
            .map(|(n, _)| n)
            .collect()
    }

    #[test]
    fn each_core_past_the_default_runs_one_more_distinct_configuration() {
        let default = &PORTFOLIOS[0];
        let own = default.configs.len();
        let most = own + default.extra.len();
        assert!(most >= 16, "the default fills a 16-core node");
        for n in [1, 2, 4, 6, 8, 12, 16, 32] {
            let chosen = names("default", n, |_, _| true);
            assert_eq!(chosen.len(), n.clamp(own, most), "{n} cores");
            for (i, c) in chosen.iter().enumerate() {
                assert!(!chosen[..i].contains(c), "{n} cores: {c} twice");
            }
            // The first cores keep the members measured for two.
            assert_eq!(chosen[..own], *default.configs, "{n} cores");
        }
    }

    #[test]
    fn a_configuration_with_nothing_to_check_gives_its_core_to_the_next() {
        let bits = |_: &str, row: &Row| row.engine != EngineKind::Smt;
        let chosen = names("default", 8, bits);
        assert_eq!(chosen.len(), 8);
        // The same list as with word-level BMC, without it and one further.
        let with_smt: Vec<&str> = (names("default", 9, |_, _| true).into_iter())
            .filter(|&n| n != "smt")
            .collect();
        assert_eq!(chosen, with_smt);
    }

    #[test]
    fn shares_are_the_sets_own_and_extra_members_take_no_turns() {
        let default = &PORTFOLIOS[0];
        let chosen = members(default, 16, |_, row| Some(row.clone()));
        let own = default.configs.len();
        let shares: Vec<u32> = chosen[..own].iter().map(|&(_, s)| s).collect();
        assert_eq!(shares, default.shares);
        assert!(chosen[own..].iter().all(|&(_, s)| s == 1));
    }

    #[test]
    fn a_twin_on_the_system_at_hand_gives_its_place_to_the_next() {
        let names = |ts: &TransitionSystem, set: &str, cores: usize| -> Vec<&str> {
            members(portfolio(set).unwrap(), cores, |_, row| Some(row.on(ts)))
                .into_iter()
                .map(|(n, _)| n)
                .collect()
        };
        let mut ts = TransitionSystem::default();
        let x = ts.add_input(None).lit();
        // Without constraints `ic3-abs-cst` is `ic3-cdcl-dynamic`: left out of the set's
        // own members, and passed over for a core of its own.
        let free = names(&ts, "default", 2);
        assert!(free.contains(&"ic3-cdcl-dynamic"));
        assert!(!free.contains(&"ic3-abs-cst"));
        assert_eq!(free.len(), PORTFOLIOS[0].configs.len() - 1);
        let mid = names(&ts, "default-mid", 7);
        assert_eq!(mid.len(), 7);
        assert!(!mid.contains(&"ic3-abs-cst"));
        assert!(mid.contains(&"cegar-loc-cdcl"));
        ts.constraints.push(x);
        assert_eq!(names(&ts, "default", 2), PORTFOLIOS[0].configs);
        assert!(names(&ts, "default-mid", 7).contains(&"ic3-abs-cst"));
    }

    #[test]
    fn no_more_cores_than_the_machine_has() {
        let machine = cores(None);
        assert!(machine >= 1);
        assert_eq!(cores(Some(1)), 1);
        assert_eq!(cores(Some(machine + 30)), machine);
    }
}
