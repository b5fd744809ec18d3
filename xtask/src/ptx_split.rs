//! Splits the device crate's PTX into small modules, so that a GPU without embedded machine
//! code JIT-compiles only the kernels a run loads (the whole PTX took 54 s on an H100).
//!
//! Each module holds one kernel, or the kernels that share a variable the host writes (a
//! `.visible` global such as `QAP_CONST_A`, which must exist once), with every function and
//! read-only table they reach, in the order of the original file. The modules go into one
//! text file, each behind a marker line `host/src/gpu/modules.rs` reads:
//! `//@qapgpu-module entries=a,b globals=G`.

use std::collections::{BTreeMap, BTreeSet};

/// The marker that opens each module in the split file.
pub const MARKER: &str = "//@qapgpu-module";

/// A top-level piece of PTX: a header line, or the declaration or definition of a symbol.
#[derive(Debug)]
struct Item {
    text: String,
    /// The symbol it declares or defines (None: header, kept in every module).
    symbol: Option<String>,
    entry: bool,
    /// Visible to the host (`.visible` variable): kernels that use it share a module.
    host_visible: bool,
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '$'
}

/// The identifiers of a piece of PTX, comments left out.
fn identifiers(text: &str) -> impl Iterator<Item = &str> {
    text.lines()
        .flat_map(|line| line.split("//").next().unwrap_or("").split(|c: char| !is_ident(c)).filter(|t| !t.is_empty()))
}

/// The symbol a top-level item declares: the first identifier after its directives (and,
/// for a function, after its return parameter list).
fn symbol_of(head: &str) -> Option<String> {
    let mut rest = head.trim_start();
    loop {
        rest = rest.trim_start();
        if rest.starts_with('.') {
            // A directive (`.visible`, `.func`, `.align 16`, `.b8`…) and its number if any.
            let end = rest.find(|c: char| c.is_whitespace() || c == '(').unwrap_or(rest.len());
            rest = &rest[end..];
            let t = rest.trim_start();
            if t.starts_with(|c: char| c.is_ascii_digit()) {
                rest = t.trim_start_matches(|c: char| c.is_ascii_digit());
            }
        } else if let Some(r) = rest.strip_prefix('(') {
            rest = &r[r.find(')')? + 1..];
        } else {
            let name: String = rest.chars().take_while(|&c| is_ident(c)).collect();
            return (!name.is_empty()).then_some(name);
        }
    }
}

/// The file's top-level items in order.
fn items(ptx: &str) -> Result<Vec<Item>, String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut depth = 0i32;
    for line in ptx.split_inclusive('\n') {
        let code = line.split("//").next().unwrap_or("").trim();
        if cur.is_empty() {
            if code.is_empty() {
                continue; // comments and blank lines between items
            }
            if [".version", ".target", ".address_size"].iter().any(|d| code.starts_with(d)) {
                out.push(Item { text: line.to_string(), symbol: None, entry: false, host_visible: false });
                continue;
            }
        }
        cur.push_str(line);
        depth += code.matches('{').count() as i32 - code.matches('}').count() as i32;
        let ends = depth == 0 && (code.ends_with(';') || code.ends_with('}'));
        if ends {
            let head = cur.lines().map(|l| l.split("//").next().unwrap_or("")).collect::<Vec<_>>().join(" ");
            let symbol = symbol_of(&head).ok_or_else(|| {
                format!("PTX: cannot tell what this declares: {}", head.chars().take(80).collect::<String>())
            })?;
            let entry = head.contains(".entry");
            let host_visible = head.trim_start().starts_with(".visible") && !entry && !head.contains(".func");
            out.push(Item { text: std::mem::take(&mut cur), symbol: Some(symbol), entry, host_visible });
        }
    }
    if !cur.trim().is_empty() {
        return Err("PTX: the file ends inside a declaration".into());
    }
    Ok(out)
}

/// A module of the split: its kernels, the host-visible variables it holds, its text.
#[derive(Debug)]
pub struct Module {
    pub entries: Vec<String>,
    pub globals: Vec<String>,
    pub text: String,
}

/// Splits `ptx` into modules (see the module's documentation), sorted by first kernel.
pub fn split(ptx: &str) -> Result<Vec<Module>, String> {
    let items = items(ptx)?;
    let defined: BTreeMap<&str, Vec<usize>> = items
        .iter()
        .enumerate()
        .filter_map(|(i, it)| Some((it.symbol.as_deref()?, i)))
        .fold(BTreeMap::new(), |mut m, (s, i)| {
            m.entry(s).or_insert_with(Vec::new).push(i);
            m
        });
    // Every item an entry reaches, through the identifiers of what it reaches.
    let reach = |start: usize| -> BTreeSet<usize> {
        let mut seen = BTreeSet::from([start]);
        let mut todo = vec![start];
        while let Some(i) = todo.pop() {
            for id in identifiers(&items[i].text) {
                for &j in defined.get(id).into_iter().flatten() {
                    if seen.insert(j) {
                        todo.push(j);
                    }
                }
            }
        }
        seen
    };
    let entries: Vec<usize> = (0..items.len()).filter(|&i| items[i].entry).collect();
    let reached: Vec<BTreeSet<usize>> = entries.iter().map(|&e| reach(e)).collect();
    // Kernels that share a host-visible variable go together (union-find over entries).
    let mut group: Vec<usize> = (0..entries.len()).collect();
    fn root(g: &mut [usize], mut i: usize) -> usize {
        while g[i] != i {
            g[i] = g[g[i]];
            i = g[i];
        }
        i
    }
    let mut owner: BTreeMap<usize, usize> = BTreeMap::new();
    for (k, set) in reached.iter().enumerate() {
        for &i in set.iter().filter(|&&i| items[i].host_visible) {
            match owner.get(&i) {
                Some(&o) => {
                    let (a, b) = (root(&mut group, o), root(&mut group, k));
                    group[a] = b;
                }
                None => {
                    owner.insert(i, k);
                }
            }
        }
    }
    let mut members: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for k in 0..entries.len() {
        let r = root(&mut group, k);
        members.entry(r).or_default().push(k);
    }
    let mut modules: Vec<Module> = members
        .values()
        .map(|ks| {
            let keep: BTreeSet<usize> = ks.iter().flat_map(|&k| reached[k].iter().copied()).collect();
            let mut text = String::new();
            for (i, it) in items.iter().enumerate() {
                if it.symbol.is_none() || keep.contains(&i) {
                    text.push_str(&it.text);
                    if !it.text.ends_with('\n') {
                        text.push('\n');
                    }
                }
            }
            let name = |i: usize| items[i].symbol.clone().unwrap_or_default();
            let mut entries: Vec<String> = ks.iter().map(|&k| name(entries[k])).collect();
            entries.sort();
            Module {
                entries,
                globals: keep.iter().filter(|&&i| items[i].host_visible).map(|&i| name(i)).collect(),
                text,
            }
        })
        .collect();
    modules.sort_by(|a, b| a.entries.cmp(&b.entries));
    Ok(modules)
}

/// The split as one file: each module behind its marker line.
pub fn render(modules: &[Module]) -> String {
    let mut out = String::new();
    for m in modules {
        out.push_str(&format!("{MARKER} entries={} globals={}\n", m.entries.join(","), m.globals.join(",")));
        out.push_str(&m.text);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "//
// Generated by LLVM NVPTX Back-End
//

.version 7.0
.target sm_70
.address_size 64

\t// .globl\tk_one
.extern .shared .align 16 .b8 DYN[];
.func panic_fail
(
\t.param .b64 panic_fail_param_0
)
.noreturn
;
.global .align 1 .b8 anon_$_1[4] = {0, 1, 2, 3};
.global .align 8 .u64 table_$_2[1] = {generic(anon_$_1)};
.visible .const .align 16 .b8 CONST_A[64];
.visible .entry k_one(
\t.param .u64 k_one_param_0
)
.maxnreg 64
{
\t.reg .b64 %rd<3>;
\tmov.u64 %rd1, table_$_2; // { not a brace
\tmov.u64 %rd2, DYN;
\t{ // callseq 0
\tcall.uni panic_fail, (param0);
\t} // callseq 0
\tret;
}
\t// .globl\tk_two
.visible .entry k_two()
{
\tld.const.u8 %r1, [CONST_A];
\tret;
}
\t// .globl\tk_three
.visible .entry k_three()
{
\tld.const.u8 %r1, [CONST_A+1];
\tret;
}
\t// .globl\tk_alone
.visible .entry k_alone()
{
\tret;
}
.func panic_fail(
\t.param .b64 panic_fail_param_0
)
.noreturn
{
\ttrap;
}
";

    #[test]
    fn symbols_are_read_after_directives_and_return_lists() {
        assert_eq!(symbol_of(".func  (.param .b32 func_retval0) f_name(").as_deref(), Some("f_name"));
        assert_eq!(symbol_of(".visible .const .align 16 .b8 QAP_CONST_A[65536];").as_deref(), Some("QAP_CONST_A"));
        assert_eq!(
            symbol_of(".global .align 8 .u64 switch_$_table_$_x308[4] = {0};").as_deref(),
            Some("switch_$_table_$_x308")
        );
        assert_eq!(symbol_of(".visible .entry aco_best(").as_deref(), Some("aco_best"));
    }

    #[test]
    fn each_kernel_gets_what_it_reaches_and_a_host_variable_binds_its_users() {
        let m = split(SAMPLE).unwrap();
        let names: Vec<String> = m.iter().map(|m| m.entries.join("+")).collect();
        assert_eq!(names, ["k_alone", "k_one", "k_three+k_two"]);
        let one = &m[1].text;
        // Headers, the shared declaration, the table chain and both pieces of the function.
        for want in [
            ".version 7.0",
            ".target sm_70",
            ".extern .shared",
            "anon_$_1[4]",
            "table_$_2[1]",
            ".func panic_fail\n(",
            "trap;",
        ] {
            assert!(one.contains(want), "k_one's module lacks {want}:\n{one}");
        }
        assert!(!one.contains("CONST_A") && !one.contains("k_two"));
        assert!(!m[0].text.contains("panic_fail") && !m[0].text.contains("anon_"));
        assert_eq!(m[2].globals, ["CONST_A"]);
        assert_eq!(m[2].text.matches(".visible .const").count(), 1);
        // Definitions keep the file's order: the declaration before its first use.
        assert!(one.find(".func panic_fail\n(").unwrap() < one.find("call.uni").unwrap());
    }

    #[test]
    fn an_unfinished_file_is_an_error() {
        assert!(split(".version 7.0\n.visible .entry k()\n{\n ret;\n").is_err());
    }

    #[test]
    fn the_rendered_file_marks_every_module() {
        let text = render(&split(SAMPLE).unwrap());
        assert_eq!(text.lines().filter(|l| l.starts_with(MARKER)).count(), 3);
        assert!(text.starts_with("//@qapgpu-module entries=k_alone globals=\n.version 7.0\n"));
    }
}
