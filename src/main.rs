fn main() {
    println!("frontdesk");
}
